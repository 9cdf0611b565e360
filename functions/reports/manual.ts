import { createOnce } from '../../shared/domain/idempotency.js';
import { fileManualReport, type ManualReport } from '../../shared/domain/reports.js';
import { httpHandler } from '../../shared/http/handler.js';
import { idempotentReply } from '../../shared/http/reply.js';

export const handler = httpHandler('reports.manual', async (req) =>
  idempotentReply(await createOnce(req.actor, req.route.id, req.headers['idempotency-key'], req.body, () => fileManualReport(req.actor, req.body as ManualReport))),
);
