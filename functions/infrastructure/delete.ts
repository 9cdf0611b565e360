import { deleteInfrastructureFile } from '../../shared/domain/infrastructure/files.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { infrastructureDeleteRoute } from '../../shared/routes/infrastructure.js';

export const handler = httpHandler(infrastructureDeleteRoute, async (req) =>
  json(await deleteInfrastructureFile(req.actor, req.params.environment_id, req.params.file_id, req.tenant)),
);
