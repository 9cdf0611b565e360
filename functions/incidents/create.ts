import { openIncident, type IncidentCreate } from '../../shared/domain/incidents/incidents.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('incidents.create', async (req) => json(await openIncident(req.actor, req.body as IncidentCreate)));
