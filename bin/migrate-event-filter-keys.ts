/**
 * One-off migration for tables written before the event filters' index (issue 39): gives every
 * stored event of a source other than `api`, or scored 0.5 or more, its GSI4 key (source and score
 * band), so `GET /api/v1/events?source=` and `?min_score=` find it by key. Run it once after
 * deploying, with the stack's TABLE_NAME and AWS_REGION set; it is idempotent (a second run
 * changes nothing) and reads tenant by tenant, page by page. Not run, the events of before drop
 * out of those two filters (not of the other reads) until they expire with their retention.
 *
 *   TABLE_NAME=... AWS_REGION=... npx tsx bin/migrate-event-filter-keys.ts
 */
const { listTenants } = await import('../shared/db/tenants.js');
const { keyEventFiltersOfTenant } = await import('../shared/db/events.js');
const { systemTenant } = await import('../shared/vocabulary/tenant.js');

let total = 0;
for (let offset = 0; ; offset += 100) {
  const tenants = await listTenants({ limit: 100, offset });
  for (const tenant of tenants) {
    // A migration of every tenant's data: the platform acts, no request decided the tenant.
    const changed = await keyEventFiltersOfTenant(systemTenant(tenant.tenant_id));
    if (changed > 0) console.log(`${tenant.tenant_id}: ${changed} events keyed`);
    total += changed;
  }
  if (tenants.length < 100) break;
}
console.log(`done: ${total} events keyed`);
