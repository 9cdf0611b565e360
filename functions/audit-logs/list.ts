import { listAuditLog } from '../../shared/domain/audit/log.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { auditLogsListRoute } from '../../shared/routes/audit.js';

export const handler = httpHandler(auditLogsListRoute, async (req) => json(await listAuditLog(req.tenant, req.query)));
