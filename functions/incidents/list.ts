import { listIncidents, type ListQuery } from '../../shared/domain/incidents/incidents.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('incidents.list', async (req) => json(await listIncidents(req.actor, req.query as ListQuery)));
