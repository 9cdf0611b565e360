import { listLines } from '../../shared/domain/infrastructure/lines.js';
import { httpHandler } from '../../shared/http/handler.js';
import { pageOfWhole } from '../../shared/http/list-page.js';
import { json } from '../../shared/http/reply.js';
import { infrastructureLinesRoute } from '../../shared/routes/infrastructure.js';

export const handler = httpHandler(infrastructureLinesRoute, async (req) =>
  json(pageOfWhole(await listLines(req.tenant, req.query.kind), req.query)),
);
