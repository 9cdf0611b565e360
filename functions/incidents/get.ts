import { findIncident } from '../../shared/domain/incidents/incidents.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { incidentsGetRoute } from '../../shared/routes/incidents.js';

export const handler = httpHandler(incidentsGetRoute, async (req) =>
  json(await findIncident(req.tenant, req.params.incident_id)),
);
