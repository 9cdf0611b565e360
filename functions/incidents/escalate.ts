import { escalate } from '../../shared/domain/incidents/incidents.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { incidentsEscalateRoute } from '../../shared/routes/incidents.js';

export const handler = httpHandler(incidentsEscalateRoute, async (req) =>
  json(await escalate(req.actor, req.tenant, req.params.incident_id, req.body.reason)),
);
