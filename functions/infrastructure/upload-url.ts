import { createUploadUrl } from '../../shared/domain/infrastructure/upload-url.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { infrastructureUploadUrlRoute } from '../../shared/routes/infrastructure.js';

export const handler = httpHandler(infrastructureUploadUrlRoute, async (req) =>
  json(await createUploadUrl(req.actor, req.params.environment_id, req.tenant, req.body)),
);
