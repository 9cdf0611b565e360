/** GET /openapi.json: the OpenAPI document of this deployment, its server URL as the caller reached it. */
import { config } from '../../shared/config.js';
import { httpHandler } from '../../shared/http/handler.js';
import { openApiDocumentFor } from '../../shared/openapi/serve.js';
import { openapiRoute } from '../../shared/routes/platform.js';

export const handler = httpHandler(openapiRoute, async (req) => ({
  json: openApiDocumentFor(req.event, config.version),
  headers: { 'Cache-Control': 'public, max-age=300' },
}));
