/** The AIS sentences of a tenant that did not decode, per UTC day and reason (counted by the vessel tracker). */
import { aisFailuresBetween } from '../../db/vessels/index.js';
import type { TenantId } from '../../vocabulary/tenant.js';

/** The tenant's AIS decoding failures per UTC day, today and the `days - 1` before. */
export async function aisStats(tenantId: TenantId, days: number, nowMs = Date.now()) {
  const toDay = new Date(nowMs).toISOString().slice(0, 10);
  const fromDay = new Date(nowMs - (days - 1) * 86400_000).toISOString().slice(0, 10);
  const rows = await aisFailuresBetween(tenantId, fromDay, toDay);
  const by_reason: Record<string, number> = {};
  for (const r of rows)
    for (const [reason, n] of Object.entries(r.failures)) by_reason[reason] = (by_reason[reason] ?? 0) + n;
  return { days: rows, failed: rows.reduce((s, r) => s + r.failed, 0), by_reason };
}
