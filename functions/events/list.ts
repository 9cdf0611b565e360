import { listEvents } from '../../shared/domain/events/read.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import type { Reply } from '../../shared/http/reply.js';
import { eventsListRoute } from '../../shared/routes/events.js';

export const handler = httpHandler(
  eventsListRoute,
  async (req): Promise<Reply> => {
    const { limit, offset, ...filter } = req.query;
    const page = await listEvents(req.tenant, filter, { limit, offset }, req.plan);
    return { json: page.events, headers: page.readLimitReached ? { 'X-Read-Limit-Reached': 'true' } : {} };
  },
  { plan: planGate },
);
