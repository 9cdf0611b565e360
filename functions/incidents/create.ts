import { openIncidentWithEvents } from '../../shared/domain/incidents/event-links.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { incidentsCreateRoute } from '../../shared/routes/incidents.js';

export const handler = httpHandler(incidentsCreateRoute, async (req) =>
  json(await openIncidentWithEvents(req.actor, req.tenant, req.body)),
);
