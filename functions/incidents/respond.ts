import { respond, type RespondInput } from '../../shared/domain/incidents/incidents.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('incidents.respond', async (req) =>
  json(await respond(req.actor, req.params.incident_id, req.body as RespondInput)),
);
