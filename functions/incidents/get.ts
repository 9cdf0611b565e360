import { findIncident } from '../../shared/domain/incidents/incidents.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('incidents.get', async (req) => json(await findIncident(req.actor, req.params.incident_id)));
