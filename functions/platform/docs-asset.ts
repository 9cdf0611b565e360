/** GET /docs/{asset}: the script and style of the interactive documentation; any other name is 404. */
import { httpHandler } from '../../shared/http/handler.js';
import { docsAssetReply } from '../../shared/openapi/docs-ui.js';

export const handler = httpHandler('docs.asset', async (req) =>
  docsAssetReply(req.params.asset, req.headers['if-none-match']),
);
