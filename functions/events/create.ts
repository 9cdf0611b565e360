import { ingestEvents, ingestLookups } from '../../shared/domain/events/ingest.js';
import { createOnce } from '../../shared/domain/requests/idempotency.js';
import { decodeAisInput } from '../../shared/domain/vessels/ais-input.js';
import { httpHandler } from '../../shared/http/handler.js';
import { idempotentReply } from '../../shared/http/reply.js';
import { ingestIdempotency } from '../../shared/http/idempotency.js';
import { eventsCreateRoute } from '../../shared/routes/events.js';

export const handler = httpHandler(
  eventsCreateRoute,
  async (req) => {
    const answer = await createOnce(
      req.actor,
      req.route.id,
      req.headers['idempotency-key'],
      req.body,
      async (attempt) => {
        const [event] = await ingestEvents(
          req.actor,
          {
            decideTenant: () => Promise.resolve(req.tenant),
            meter: req.meter,
            read: req.read,
            attempt,
            decode: decodeAisInput,
            mode: 'single',
          },
          [req.body],
          () => ['body'],
        );
        return event;
      },
      ingestIdempotency(req),
    );
    return idempotentReply(answer);
  },
  { prefetch: ({ body }, tenantId) => ingestLookups(tenantId, [body]), meter: 'function' },
);
