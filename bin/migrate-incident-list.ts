/**
 * One-off migration for tables written before the incidents' timeline items and list rows (issue
 * 39): moves each incident's timeline out of its item into items of their own and gives it its
 * list rows and counts (shared/db/incident-migration.ts). Run it once after deploying, with the
 * stack's TABLE_NAME and AWS_REGION set; it is idempotent (a second run changes nothing) and goes
 * tenant by tenant. Until it has run, the incidents of before read as before (their detail, replay
 * and snapshot, and their changes, which put their new timeline entries as items) but are not in
 * `GET /api/v1/incidents`.
 *
 *   TABLE_NAME=... AWS_REGION=... npx tsx bin/migrate-incident-list.ts
 */
const { listTenants } = await import('../shared/db/tenants.js');
const { migrateIncidentsOfTenant } = await import('../shared/db/incident-migration.js');

let total = 0;
for (let offset = 0; ; offset += 100) {
  const tenants = await listTenants({ limit: 100, offset });
  for (const tenant of tenants) {
    const moved = await migrateIncidentsOfTenant(tenant.tenant_id);
    if (moved > 0) console.log(`${tenant.tenant_id}: ${moved} incidents moved`);
    total += moved;
  }
  if (tenants.length < 100) break;
}
console.log(`done: ${total} incidents moved`);
