/** GET /docs: the interactive documentation (Swagger UI) of /openapi.json. */
import { httpHandler } from '../../shared/http/handler.js';
import { docsPageReply } from '../../shared/openapi/docs-ui.js';
import { docsRoute } from '../../shared/routes/platform.js';

export const handler = httpHandler(docsRoute, async () => docsPageReply());
