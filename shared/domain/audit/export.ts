/**
 * The audit log for auditors: a time range of a tenant's entries, oldest first, as NDJSON (one
 * entry per line, as the API answers it) or CSV (RFC 4180, one row per entry, `changes` as JSON),
 * written page by page as the table is read, so a long range never sits in memory. Entries are
 * written as the API answers them (`shownEntry`: no credential of a URL).
 */
import { eachAuditPage, type AuditEntry } from '../../db/audit/index.js';
import { invalid } from '../../errors.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { shownEntry } from './log.js';

export type ExportFormat = 'ndjson' | 'csv';

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  ndjson: 'application/x-ndjson',
  csv: 'text/csv; charset=utf-8',
};

/** The longest range one export reads. */
export const MAX_EXPORT_DAYS = 31;

export const CSV_COLUMNS = [
  'log_id',
  'timestamp',
  'tenant_id',
  'action',
  'resource_type',
  'resource_id',
  'user_id',
  'actor_type',
  'api_key_id',
  'tool',
  'source_ip',
  'request_id',
  'changes',
] as const satisfies readonly (keyof AuditEntry)[];

/** CSV when the caller asks for it (`Accept: text/csv`), NDJSON otherwise. */
export function exportFormatOf(accept: string | undefined): ExportFormat {
  return accept && /(^|,)\s*text\/csv\b/i.test(accept) ? 'csv' : 'ndjson';
}

/**
 * One CSV field: quoted when it holds a comma, a quote or a line break (quotes doubled), and, as
 * OWASP advises for files opened in spreadsheets, a value starting with `=`, `+`, `-`, `@`, a tab
 * or a carriage return is prefixed with `'` so it is never run as a formula.
 */
export function csvField(value: unknown): string {
  let text =
    value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvRow = (values: readonly unknown[]) => `${values.map(csvField).join(',')}\r\n`;

export interface ExportRange {
  from: string;
  /** Default: now. */
  to?: string;
}

/** Checks the range and returns the function that writes the export; it resolves with the entries written. */
export function auditExport(
  tenantId: TenantId,
  range: ExportRange,
  format: ExportFormat,
): (write: (chunk: string) => Promise<void>) => Promise<number> {
  const fromMs = Date.parse(range.from);
  const toMs = range.to ? Date.parse(range.to) : Date.now();
  if (toMs < fromMs) throw invalid(['query', 'to'], 'must not be before from', 'value_error');
  if (toMs - fromMs > MAX_EXPORT_DAYS * 86_400_000)
    throw invalid(
      ['query', 'to'],
      `at most ${MAX_EXPORT_DAYS} days an export: export longer periods in parts`,
      'value_error',
    );
  return async (write) => {
    let count = 0;
    if (format === 'csv') await write(csvRow(CSV_COLUMNS));
    await eachAuditPage(tenantId, fromMs, toMs, async (entries) => {
      if (entries.length === 0) return;
      const chunk = entries
        .map(shownEntry)
        .map((e) => (format === 'csv' ? csvRow(CSV_COLUMNS.map((c) => e[c])) : `${JSON.stringify(e)}\n`))
        .join('');
      await write(chunk);
      count += entries.length;
    });
    return count;
  };
}
