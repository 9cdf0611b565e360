/**
 * One-off migration for tables written before the audit indexes (issue 15): gives every audit
 * entry its index keys (by action, resource type and user), so the filters of
 * `GET /api/v1/audit-logs/{tenant_id}` find it. Run it once after deploying, with the stack's
 * TABLE_NAME and AWS_REGION set; it is idempotent (a second run changes nothing) and reads tenant
 * by tenant, page by page.
 *
 *   TABLE_NAME=... AWS_REGION=... npx tsx bin/migrate-audit-index.ts
 */
const { listTenants } = await import('../shared/db/tenants.js');
const { reindexAuditOfTenant } = await import('../shared/db/audit/index.js');
const { systemTenant } = await import('../shared/vocabulary/tenant.js');

let total = 0;
for (let offset = 0; ; offset += 100) {
  const tenants = await listTenants({ limit: 100, offset });
  for (const tenant of tenants) {
    // A migration of every tenant's data: the platform acts, no request decided the tenant.
    const changed = await reindexAuditOfTenant(systemTenant(tenant.tenant_id));
    if (changed > 0) console.log(`${tenant.tenant_id}: ${changed} audit entries indexed`);
    total += changed;
  }
  if (tenants.length < 100) break;
}
console.log(`done: ${total} audit entries indexed`);
