import { ingestEvents, type EventInput } from '../../shared/domain/events/ingest.js';
import { createOnce } from '../../shared/domain/idempotency.js';
import { httpHandler } from '../../shared/http/handler.js';
import { idempotentReply } from '../../shared/http/reply.js';

export const handler = httpHandler('events.batch', async (req) => {
  const { events } = req.body as { events: EventInput[] };
  const answer = await createOnce(req.actor, req.route.id, req.headers['idempotency-key'], req.body, () =>
    ingestEvents(req.actor, events, (i) => ['body', 'events', i]),
  );
  return idempotentReply(answer);
});
