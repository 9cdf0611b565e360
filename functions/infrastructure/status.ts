import { infrastructureFileStatus } from '../../shared/domain/infrastructure/status.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { infrastructureStatusRoute } from '../../shared/routes/infrastructure.js';

export const handler = httpHandler(infrastructureStatusRoute, async (req) =>
  json(await infrastructureFileStatus(req.actor, req.params.environment_id, req.params.file_id, req.tenant)),
);
