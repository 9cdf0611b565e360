import { respond } from '../../shared/domain/incidents/incidents.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { incidentsRespondRoute } from '../../shared/routes/incidents.js';

export const handler = httpHandler(incidentsRespondRoute, async (req) =>
  json(await respond(req.actor, req.tenant, req.params.incident_id, req.body)),
);
