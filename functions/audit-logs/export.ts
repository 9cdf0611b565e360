/** GET /api/v1/audit-logs/{tenant_id}/export: a time range of the log, streamed as NDJSON or CSV (shared/domain/audit/export.ts). */
import { auditExport, EXPORT_CONTENT_TYPES, exportFormatOf } from '../../shared/domain/audit/export.js';
import { streamingHttpHandler } from '../../shared/http/stream-handler.js';
import { auditLogsExportRoute } from '../../shared/routes/audit.js';

export const handler = streamingHttpHandler(auditLogsExportRoute, async (req) => {
  const format = exportFormatOf(req.headers.accept);
  const write = auditExport(req.tenant, { from: req.query.from, to: req.query.to }, format);
  return {
    headers: {
      'Content-Type': EXPORT_CONTENT_TYPES[format],
      'Content-Disposition': `attachment; filename="audit-${req.tenant}.${format === 'csv' ? 'csv' : 'ndjson'}"`,
    },
    body: async (sink) => {
      const entries = await write(sink.write);
      req.log.info('audit log exported', { entries, format });
    },
  };
});
