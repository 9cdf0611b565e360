import { extractUploadedFile } from '../../shared/domain/infrastructure/presigned.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('infrastructure.extract', async (req) =>
  json(await extractUploadedFile(req.actor, req.params.environment_id, req.params.file_id, req.query.tenant_id)),
);
