/**
 * One-off migration for tables written before the deliveries' status index (issue 39): gives
 * every webhook delivery its GSI1 keys (its subscription and status), so
 * `GET /api/v1/webhooks/{id}/deliveries?status=` and the replay of failed deliveries find it.
 * Run it once after deploying, with the stack's TABLE_NAME and AWS_REGION set; it is idempotent
 * (a second run changes nothing) and reads tenant by tenant, subscription by subscription. Not
 * run, the deliveries of before drop out of those two reads (not of the unfiltered log) until
 * they expire, 30 days after their message.
 *
 *   TABLE_NAME=... AWS_REGION=... npx tsx bin/migrate-delivery-index.ts
 */
const { listTenants } = await import('../shared/db/tenants.js');
const { allWebhooks, reindexDeliveriesOfWebhook } = await import('../shared/db/webhooks/index.js');
const { systemTenant } = await import('../shared/vocabulary/tenant.js');

let total = 0;
for (let offset = 0; ; offset += 100) {
  const tenants = await listTenants({ limit: 100, offset });
  for (const tenant of tenants) {
    // A migration of every tenant's data: the platform acts, no request decided the tenant.
    const tenantId = systemTenant(tenant.tenant_id);
    let changed = 0;
    for (const webhook of await allWebhooks(tenantId))
      changed += await reindexDeliveriesOfWebhook(tenantId, webhook.webhook_id);
    if (changed > 0) console.log(`${tenant.tenant_id}: ${changed} deliveries indexed`);
    total += changed;
  }
  if (tenants.length < 100) break;
}
console.log(`done: ${total} deliveries indexed`);
