/**
 * Reading a tenant's audit log: its filters as the spec names them, checked, and one entry by id.
 * An entry is answered with any credential of a URL in it `REDACTED` (shared/url-secrets.ts): new
 * entries are written so, and one written before that rule is shown so too.
 */
import { canonicalJson, eachAuditPage, getAuditEntry, queryAudit, type AuditEntry } from '../../db/audit/index.js';
import { invalid, NotFoundError } from '../../errors.js';
import { redactSecretsIn } from '../../url-secrets.js';
import type { TenantId } from '../../vocabulary/tenant.js';

export const AUDIT_ENTRY_NOT_FOUND = 'Audit log entry not found';

export interface AuditLogQuery {
  action?: string;
  resource_type?: string;
  user_id?: string;
  start_date?: string;
  end_date?: string;
  skip: number;
  limit: number;
}

/** The entry as answered: its changes without a credential of a URL. */
export function shownEntry(entry: AuditEntry): AuditEntry {
  return entry.changes ? { ...entry, changes: redactSecretsIn(entry.changes) } : entry;
}

export async function listAuditLog(
  tenantId: TenantId,
  q: AuditLogQuery,
): Promise<{ items: AuditEntry[]; total: number; limit: number; skip: number }> {
  const fromMs = q.start_date ? Date.parse(q.start_date) : undefined;
  const toMs = q.end_date ? Date.parse(q.end_date) : undefined;
  if (fromMs !== undefined && toMs !== undefined && toMs < fromMs)
    throw invalid(['query', 'end_date'], 'must not be before start_date', 'value_error');
  const { items, total } = await queryAudit(
    tenantId,
    { action: q.action, resourceType: q.resource_type, userId: q.user_id, fromMs, toMs },
    { limit: q.limit, offset: q.skip },
  );
  return { items: items.map(shownEntry), total, limit: q.limit, skip: q.skip };
}

export async function findAuditEntry(tenantId: TenantId, logId: string): Promise<AuditEntry> {
  const entry = await getAuditEntry(tenantId, logId);
  if (!entry) throw new NotFoundError(AUDIT_ENTRY_NOT_FOUND);
  return shownEntry(entry);
}

/**
 * The ids of the tenant's entries whose changes hold a credential of a URL as written, oldest
 * first: entries written before they were written redacted. bin/migrate-url-secrets.ts reports
 * them and leaves them as they are: the hourly digests hash each entry as stored, so a redacted
 * entry would verify as changed, unless the chain of digests were written again from its hour on,
 * which is the very edit the digests exist to show (docs/architecture.md, 18, "Credentials in URLs").
 */
export async function auditEntriesWithUrlCredentials(tenantId: TenantId): Promise<string[]> {
  const found: string[] = [];
  await eachAuditPage(tenantId, 0, Date.now(), (entries) => {
    for (const entry of entries)
      if (entry.changes && canonicalJson(entry.changes) !== canonicalJson(shownEntry(entry).changes))
        found.push(entry.log_id);
  });
  return found;
}
