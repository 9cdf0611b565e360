import { ingestEvents, ingestLookups } from '../../shared/domain/events/ingest.js';
import { createOnce } from '../../shared/domain/idempotency.js';
import { httpHandler } from '../../shared/http/handler.js';
import { idempotentReply } from '../../shared/http/reply.js';
import { eventsCreateRoute } from '../../shared/routes/events.js';

export const handler = httpHandler(
  eventsCreateRoute,
  async (req) => {
    const answer = await createOnce(req.actor, req.route.id, req.headers['idempotency-key'], req.body, async () => {
      const [event] = await ingestEvents(req.actor, { decideTenant: () => Promise.resolve(req.tenant), meter: req.meter, read: req.read }, [req.body], () => ['body']);
      return event;
    });
    return idempotentReply(answer);
  },
  { prefetch: ({ body }, tenantId) => ingestLookups(tenantId, [body]), meter: 'function' },
);
