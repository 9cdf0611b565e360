import { ingestEvents, type EventInput } from '../../shared/domain/events/ingest.js';
import { createOnce } from '../../shared/domain/idempotency.js';
import { httpHandler } from '../../shared/http/handler.js';
import { idempotentReply } from '../../shared/http/reply.js';

export const handler = httpHandler('events.create', async (req) => {
  const answer = await createOnce(req.actor, req.route.id, req.headers['idempotency-key'], req.body, async () => {
    const [event] = await ingestEvents(req.actor, [req.body as EventInput], () => ['body']);
    return event;
  });
  return idempotentReply(answer);
});
