import { tagLines } from '../../shared/domain/infrastructure/lines.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { infrastructureTagLinesRoute } from '../../shared/routes/infrastructure.js';

export const handler = httpHandler(infrastructureTagLinesRoute, async (req) =>
  json(await tagLines(req.actor, req.tenant, req.params.environment_id, req.params.file_id, req.body)),
);
