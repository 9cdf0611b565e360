import { markProcessed } from '../../shared/domain/events/read.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import { json } from '../../shared/http/reply.js';
import { eventsProcessedRoute } from '../../shared/routes/events.js';

export const handler = httpHandler(
  eventsProcessedRoute,
  async (req) => json(await markProcessed(req.actor, req.params.event_id, req.tenant, req.body, req.plan)),
  { plan: planGate },
);
