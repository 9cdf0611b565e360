import { verifyAuditLog } from '../../shared/domain/audit/digest.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { auditLogsVerifyRoute } from '../../shared/routes/audit.js';

export const handler = httpHandler(auditLogsVerifyRoute, async (req) =>
  json(await verifyAuditLog(req.tenant, req.query.from, req.query.to)),
);
