import { deleteInfrastructureFile } from '../../shared/domain/infrastructure/files.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('infrastructure.delete', async (req) =>
  json(await deleteInfrastructureFile(req.actor, req.params.environment_id, req.params.file_id, req.query.tenant_id)),
);
