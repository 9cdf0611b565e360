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
    const headers: Record<string, string> = page.readLimitReached ? { 'X-Read-Limit-Reached': 'true' } : {};
    if (page.readBackTo) headers['X-Read-Back-To'] = page.readBackTo;
    return { json: page.events, headers };
  },
  { plan: planGate },
);
