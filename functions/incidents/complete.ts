import { completeDraft, type CompleteInput } from '../../shared/domain/incidents/drafts.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('incidents.complete', async (req) =>
  json(await completeDraft(req.actor, req.params.incident_id, req.body as CompleteInput)),
);
