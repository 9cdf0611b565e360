import { ingestEvents } from '../../shared/domain/events/ingest.js';
import { createOnce } from '../../shared/domain/idempotency.js';
import { httpHandler } from '../../shared/http/handler.js';
import { idempotentReply } from '../../shared/http/reply.js';
import { eventsBatchRoute } from '../../shared/routes/events.js';

export const handler = httpHandler(eventsBatchRoute, async (req) => {
  const { events } = req.body;
  const answer = await createOnce(req.actor, req.route.id, req.headers['idempotency-key'], req.body, () =>
    ingestEvents(req.actor, req.tenantOf, events, (i) => ['body', 'events', i]),
  );
  return idempotentReply(answer);
});
