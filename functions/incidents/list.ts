import { listIncidents } from '../../shared/domain/incidents/incidents.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { incidentsListRoute } from '../../shared/routes/incidents.js';

export const handler = httpHandler(incidentsListRoute, async (req) => json(await listIncidents(req.tenant, req.query)));
