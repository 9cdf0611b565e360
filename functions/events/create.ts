import { ingestEvents } from '../../shared/domain/events/ingest.js';
import { createOnce } from '../../shared/domain/idempotency.js';
import { httpHandler } from '../../shared/http/handler.js';
import { idempotentReply } from '../../shared/http/reply.js';
import { eventsCreateRoute } from '../../shared/routes/events.js';

export const handler = httpHandler(eventsCreateRoute, async (req) => {
  const answer = await createOnce(req.actor, req.route.id, req.headers['idempotency-key'], req.body, async () => {
    const [event] = await ingestEvents(req.actor, () => Promise.resolve(req.tenant), [req.body], () => ['body']);
    return event;
  });
  return idempotentReply(answer);
});
