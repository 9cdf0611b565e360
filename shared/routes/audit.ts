/** The tenant's audit log: every change, who made it, when, from where, and what changed. */
import {
  auditEntryPath,
  auditExportHeaders,
  auditExportQuery,
  auditLogList,
  auditLogQuery,
  auditLogResponse,
  auditTenantPath,
  auditVerification,
  auditVerifyQuery,
} from '../schemas/audit.js';
import type { RouteDef } from './types.js';

export const auditLogsListRoute = {
  id: 'auditLogs.list',
  method: 'GET',
  path: '/api/v1/audit-logs/{tenant_id}',
  handler: 'functions/audit-logs/list.ts',
  access: 'VIEWER',
  tenant: 'path',
  tag: 'audit-logs',
  summary: "The tenant's audit log, newest first, filtered by action, resource type, user and time",
  description:
    "Every change to the tenant is here, written in the same transaction as the change itself. Each filter is served by an index (action, resource type, user) and the time range by the entries' time-ordered ids, so a filtered page reads only what it returns (and `total` counts the range). `start_date` and `end_date` are both included. Entries are kept as the tenant's `retention_days.audit_logs` says (docs/configuration.md).",
  request: { path: auditTenantPath, query: auditLogQuery },
  response: { status: 200, description: 'AuditLogListResponse.', schema: auditLogList },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const auditLogsGetRoute = {
  id: 'auditLogs.get',
  method: 'GET',
  path: '/api/v1/audit-logs/{tenant_id}/{log_id}',
  handler: 'functions/audit-logs/get.ts',
  access: 'VIEWER',
  tenant: 'path',
  tag: 'audit-logs',
  summary: 'One audit entry',
  request: { path: auditEntryPath },
  response: { status: 200, description: 'AuditLogResponse.', schema: auditLogResponse },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const auditLogsVerifyRoute = {
  id: 'auditLogs.verify',
  method: 'GET',
  path: '/api/v1/audit-logs/{tenant_id}/verify',
  handler: 'functions/audit-logs/verify.ts',
  access: 'VIEWER',
  tenant: 'path',
  tag: 'audit-logs',
  summary: 'Prove the audit log unchanged: recompute the hourly digests of a range and report the first mismatch',
  description:
    "Every hour of the tenant's log gets a digest, within 20 minutes of its end: the hash of each entry of the hour and the hash of the digest before (a chain, as CloudTrail's digest files). This recomputes them from the entries in the table now, so an entry changed, removed or added afterwards, a digest changed, or a broken link is named. Hours not digested yet are not checked (`digested_until`).",
  request: { path: auditTenantPath, query: auditVerifyQuery },
  response: { status: 200, description: 'What was checked, and the first mismatch if any.', schema: auditVerification },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const auditLogsExportRoute = {
  id: 'auditLogs.export',
  method: 'GET',
  path: '/api/v1/audit-logs/{tenant_id}/export',
  handler: 'functions/audit-logs/export.ts',
  access: 'VIEWER',
  tenant: 'path',
  tag: 'audit-logs',
  summary: 'Export a time range of the audit log for auditors: NDJSON, or CSV with `Accept: text/csv`',
  description:
    "Oldest first, streamed as the log is read (so a long range starts at once and never waits in memory). NDJSON: one entry per line as `GET .../audit-logs/{tenant_id}/{log_id}` answers it. CSV (RFC 4180, a header row, `changes` as JSON; a value that a spreadsheet would run as a formula is prefixed with `'`). At most 31 days a call. Check the range with `.../verify` to prove what you exported unchanged.",
  request: { path: auditTenantPath, query: auditExportQuery, headers: auditExportHeaders },
  response: {
    status: 200,
    description: 'The entries, one per line: NDJSON, or CSV with `Accept: text/csv`.',
    contentType: 'application/x-ndjson',
    alternateContentTypes: ['text/csv'],
  },
  errors: [404],
  streaming: true,
  timeoutSeconds: 900,
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const auditRoutes: readonly RouteDef[] = [
  auditLogsListRoute,
  auditLogsVerifyRoute,
  auditLogsExportRoute,
  auditLogsGetRoute,
];
