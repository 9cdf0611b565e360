import { markProcessed, type ProcessedUpdate } from '../../shared/domain/events/read.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('events.processed', async (req) =>
  json(await markProcessed(req.actor, req.params.event_id, req.query.tenant_id, req.body as ProcessedUpdate)),
);
