/**
 * One-off backfill for tables written before the mention index's day totals (issue 39; data-model
 * pattern 48a): the threat score's history reads an entity's day totals, which the stream worker
 * keeps for the events it indexes from then on. This puts every tenant's events of the score's
 * window (the last 92 days) through the worker's own indexing: a mention item the totals do not
 * hold yet (no `counted`) is counted, one they hold is refused, so it is idempotent (a second run,
 * or one racing the worker, changes nothing) and counts nothing twice. Not run, the score's history
 * starts on the day of the deployment, and fills as the window moves on.
 *
 *   TABLE_NAME=... AWS_REGION=... npx tsx bin/backfill-mention-days.ts
 */
const { listTenants } = await import('../shared/db/tenants.js');
const { backfillMentionDays } = await import('../shared/domain/events/index.js');
const { systemTenant } = await import('../shared/vocabulary/tenant.js');

/** The score's window and a day on either side. */
const SINCE_MS = Date.now() - 92 * 86_400_000;

let total = 0;
for (let offset = 0; ; offset += 100) {
  const tenants = await listTenants({ limit: 100, offset });
  for (const tenant of tenants) {
    // A migration of every tenant's data: the platform acts, no request decided the tenant.
    const tenantId = systemTenant(tenant.tenant_id);
    const written = await backfillMentionDays(tenantId, SINCE_MS);
    if (written > 0) console.log(`${tenant.tenant_id}: ${written} mention items written`);
    total += written;
  }
  if (tenants.length < 100) break;
}
console.log(`done: ${total} mention items written`);
