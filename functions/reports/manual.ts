import { createOnce } from '../../shared/domain/requests/idempotency.js';
import { ingestLookups } from '../../shared/domain/events/ingest.js';
import { fileManualReport } from '../../shared/domain/events/manual-reports.js';
import { httpHandler } from '../../shared/http/handler.js';
import { idempotentReply } from '../../shared/http/reply.js';
import { ingestIdempotency } from '../../shared/http/idempotency.js';
import { reportsManualRoute } from '../../shared/routes/events.js';

export const handler = httpHandler(
  reportsManualRoute,
  async (req) =>
    idempotentReply(
      await createOnce(
        req.actor,
        req.route.id,
        req.headers['idempotency-key'],
        req.body,
        (attempt) => fileManualReport(req.actor, req.tenant, req.body, { meter: req.meter, read: req.read, attempt }),
        ingestIdempotency(req),
      ),
    ),
  { prefetch: ({ body }, tenantId) => ingestLookups(tenantId, [body]), meter: 'function' },
);
