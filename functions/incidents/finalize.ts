import { finalizeDraft } from '../../shared/domain/incidents/drafts.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('incidents.finalize', async (req) =>
  json(await finalizeDraft(req.actor, req.params.incident_id, (req.body as { note?: string }).note)),
);
