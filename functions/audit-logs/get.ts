import { findAuditEntry } from '../../shared/domain/audit/log.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { auditLogsGetRoute } from '../../shared/routes/audit.js';

export const handler = httpHandler(auditLogsGetRoute, async (req) =>
  json(await findAuditEntry(req.tenant, req.params.log_id)),
);
