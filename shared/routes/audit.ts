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
    "Every change to the tenant is here, written in the same transaction as the change itself. Each filter is served by an index (action, resource type, user) and the time range by the entries' time-ordered ids, so a filtered page reads only what it returns (and `total` counts the range). `start_date` and `end_date` are both included. Entries are kept: the tenant's `retention_days.audit_logs` is not applied yet (docs/configuration.md).",
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
  summary:
    'Prove the audit log unchanged: check every entry of a range against its seal, and recompute the hourly digests',
  description:
    "Every entry is sealed as it is written: an HMAC of all its fields (its tenant and key among them) under a KMS key the table's writers cannot read. This checks the seal of every entry of the range and names each one edited since, whatever its age, the current hour's included (`edited_entries`: its id and the fields that no longer match); entries written before sealing are counted as `entries_unsealed`, not as edited. Every hour of the tenant's log also gets a digest, within 20 minutes of its end: the hash of each entry of the hour and the hash of the digest before (a chain, as CloudTrail's digest files). This recomputes them from the entries in the table now, so an entry changed, removed or added afterwards, a digest changed, or a broken link is named (`first_mismatch`). Hours not digested yet have no digest to check (`digested_until`): there an entry removed is not found unless another entry of its transaction names it.",
  request: { path: auditTenantPath, query: auditVerifyQuery },
  response: {
    status: 200,
    description: 'What was checked, each edited entry, and the first digest mismatch if any.',
    schema: auditVerification,
  },
  errors: [404],
  grants: { table: 'read', audit: 'verify' },
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
