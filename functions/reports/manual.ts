import { createOnce } from '../../shared/domain/idempotency.js';
import { ingestLookups } from '../../shared/domain/events/ingest.js';
import { fileManualReport } from '../../shared/domain/reports.js';
import { httpHandler } from '../../shared/http/handler.js';
import { idempotentReply } from '../../shared/http/reply.js';
import { reportsManualRoute } from '../../shared/routes/events.js';

export const handler = httpHandler(
  reportsManualRoute,
  async (req) =>
    idempotentReply(
      await createOnce(req.actor, req.route.id, req.headers['idempotency-key'], req.body, () =>
        fileManualReport(req.actor, req.tenant, req.body, { meter: req.meter, read: req.read }),
      ),
    ),
  { prefetch: ({ body }, tenantId) => ingestLookups(tenantId, [body]), meter: 'function' },
);
