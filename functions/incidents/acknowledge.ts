import { acknowledge } from '../../shared/domain/incidents/incidents.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { incidentsAcknowledgeRoute } from '../../shared/routes/incidents.js';

export const handler = httpHandler(incidentsAcknowledgeRoute, async (req) =>
  json(await acknowledge(req.actor, req.params.incident_id, String(req.query.token))),
);
