/** GET /docs: the interactive documentation (Swagger UI) of /openapi.json. */
import { httpHandler } from '../../shared/http/handler.js';
import { docsPageReply } from '../../shared/openapi/docs-ui.js';

export const handler = httpHandler('docs', async () => docsPageReply());
