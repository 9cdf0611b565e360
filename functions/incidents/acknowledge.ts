import { acknowledge } from '../../shared/domain/incidents/incidents.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('incidents.acknowledge', async (req) =>
  json(await acknowledge(req.actor, req.params.incident_id, String(req.query.token))),
);
