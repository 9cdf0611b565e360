import { findEvent } from '../../shared/domain/events/read.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import { json } from '../../shared/http/reply.js';
import { eventsGetRoute } from '../../shared/routes/events.js';

export const handler = httpHandler(
  eventsGetRoute,
  async (req) => json(await findEvent(req.actor, req.params.event_id, req.tenant, req.plan)),
  { plan: planGate },
);
