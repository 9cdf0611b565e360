import { ingestEvents, ingestLookups } from '../../shared/domain/events/ingest.js';
import { createOnce } from '../../shared/domain/requests/idempotency.js';
import { decodeAisInput } from '../../shared/domain/vessels/ais-input.js';
import { httpHandler } from '../../shared/http/handler.js';
import { idempotentReply } from '../../shared/http/reply.js';
import { ingestIdempotency } from '../../shared/http/idempotency.js';
import { eventsBatchRoute } from '../../shared/routes/events.js';

export const handler = httpHandler(
  eventsBatchRoute,
  async (req) => {
    const { events } = req.body;
    const answer = await createOnce(
      req.actor,
      req.route.id,
      req.headers['idempotency-key'],
      req.body,
      (attempt) =>
        ingestEvents(
          req.actor,
          {
            decideTenant: req.tenantOf,
            meter: req.meter,
            read: req.read,
            attempt,
            decode: decodeAisInput,
            mode: 'batch',
          },
          events,
          (i) => ['body', 'events', i],
        ),
      ingestIdempotency(req),
    );
    return idempotentReply(answer);
  },
  {
    prefetch: ({ body }, tenantId) => {
      const events = body && typeof body === 'object' ? (body as { events?: unknown }).events : undefined;
      return Array.isArray(events) ? ingestLookups(tenantId, events) : [];
    },
    meter: 'function',
  },
);
