import { escalate } from '../../shared/domain/incidents/incidents.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('incidents.escalate', async (req) =>
  json(await escalate(req.actor, req.params.incident_id, (req.body as { reason?: string }).reason)),
);
