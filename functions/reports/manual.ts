import { createOnce } from '../../shared/domain/idempotency.js';
import { fileManualReport } from '../../shared/domain/reports.js';
import { httpHandler } from '../../shared/http/handler.js';
import { idempotentReply } from '../../shared/http/reply.js';
import { reportsManualRoute } from '../../shared/routes/events.js';

export const handler = httpHandler(reportsManualRoute, async (req) =>
  idempotentReply(await createOnce(req.actor, req.route.id, req.headers['idempotency-key'], req.body, () => fileManualReport(req.actor, req.tenant, req.body))),
);
