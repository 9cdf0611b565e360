/**
 * One-off migration for tables written before the processed index (issue 11): events stored
 * then sit in GSI3 while unprocessed; now GSI3 holds the processed ones. Run it once after
 * deploying, with the stack's TABLE_NAME and AWS_REGION set; it is idempotent (a second run
 * changes nothing) and reads tenant by tenant, page by page.
 *
 *   TABLE_NAME=... AWS_REGION=... npx tsx bin/migrate-event-index.ts
 */
const { listTenants } = await import('../shared/db/tenants.js');
const { reindexEventsOfTenant } = await import('../shared/db/events.js');
const { systemTenant } = await import('../shared/vocabulary/tenant.js');

let total = 0;
for (let offset = 0; ; offset += 100) {
  const tenants = await listTenants({ limit: 100, offset });
  for (const tenant of tenants) {
    // A migration of every tenant's data: the platform acts, no request decided the tenant.
    const changed = await reindexEventsOfTenant(systemTenant(tenant.tenant_id));
    if (changed > 0) console.log(`${tenant.tenant_id}: ${changed} events re-indexed`);
    total += changed;
  }
  if (tenants.length < 100) break;
}
console.log(`done: ${total} events re-indexed`);
