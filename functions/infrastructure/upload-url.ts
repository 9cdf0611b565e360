import { createUploadUrl, type UploadUrlRequest } from '../../shared/domain/infrastructure/presigned.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('infrastructure.uploadUrl', async (req) =>
  json(await createUploadUrl(req.actor, req.params.environment_id, req.query.tenant_id, req.body as UploadUrlRequest)),
);
