/** GET /docs/{asset}: the script and style of the interactive documentation; any other name is 404. */
import { httpHandler } from '../../shared/http/handler.js';
import { docsAssetReply } from '../../shared/openapi/docs-ui.js';
import { docsAssetRoute } from '../../shared/routes/platform.js';

export const handler = httpHandler(docsAssetRoute, async (req) =>
  docsAssetReply(req.params.asset, req.headers['if-none-match']),
);
