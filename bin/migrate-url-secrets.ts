/**
 * One-off migration for tables written before credentials in URLs were sealed (issue 34, item 5;
 * docs/architecture.md, 18): integrations, connectors and webhook subscriptions saved before keep
 * the URL they call, credentials and all (`https://host/x?token=...`, `user:password@`), in the
 * clear in their item. Each is rewritten as one saved now is: the shown form (`token=REDACTED`)
 * in the item, the credentials sealed (an integration's are in its sealed configuration already;
 * a webhook's are sealed beside its URL), each under its version, so an edit made meanwhile is
 * read again, not overwritten. Nothing is sent anywhere, and the URL called stays the same.
 *
 * Audit entries written before entries were written redacted may hold such a URL in their
 * changes. They are answered and exported redacted already; they are listed here (tenant and
 * log id) and left as they are: their hour's digest hashes them as stored, so no rewrite can keep
 * `verify` valid without writing the chain of digests again (see auditEntriesWithUrlCredentials).
 * Rotate the credentials they name at their issuer.
 *
 * Run it once after deploying, with the stack's TABLE_NAME and AWS_REGION set, and SECRETS_KEY_ID
 * (the stack's secrets key: kms:Encrypt and kms:Decrypt); `--dry-run` says what it would change
 * and writes nothing; `--tenant <id>` does one tenant. Idempotent: a second run changes nothing.
 * It prints ids, counts and URLs as shown, never a credential.
 *
 *   TABLE_NAME=... AWS_REGION=... SECRETS_KEY_ID=... npx tsx bin/migrate-url-secrets.ts [--dry-run] [--tenant <id>]
 */
const args = process.argv.slice(2);
const dryRun = args.includes('--dry-run');
const tenantAt = args.indexOf('--tenant');
const onlyTenant = tenantAt >= 0 ? args[tenantAt + 1] : undefined;
if (
  (tenantAt >= 0 && !onlyTenant) ||
  args.some((a, i) => a !== '--dry-run' && a !== '--tenant' && (tenantAt < 0 || i !== tenantAt + 1))
) {
  console.error('usage: npx tsx bin/migrate-url-secrets.ts [--dry-run] [--tenant <tenant id>]');
  process.exit(2);
}

// Imported after the checks: the config module reads the environment when it loads.
const { config } = await import('../shared/config.js');
if (config.stage === 'local') {
  // Against `npm start`'s tables: its secret box (the key file of its data directory).
  const { installLocalAdapters } = await import('../shared/local/compose.js');
  await installLocalAdapters();
}
const { listTenants } = await import('../shared/db/tenants.js');
const { sealLegacyIntegrationUrls } = await import('../shared/domain/integrations/index.js');
const { sealLegacyWebhookUrls } = await import('../shared/domain/webhooks/index.js');
const { auditEntriesWithUrlCredentials } = await import('../shared/domain/audit/index.js');
const { systemTenant } = await import('../shared/vocabulary/tenant.js');
type TenantId = import('../shared/vocabulary/tenant.js').TenantId;

const verb = dryRun ? 'would rewrite' : 'rewrote';
const totals = { integrations: 0, connectors: 0, webhooks: 0, skipped: 0, audit: 0 };

async function migrateTenant(tenantId: TenantId): Promise<void> {
  // A migration of every tenant's data: the platform acts, no request decided the tenant.
  const changes = [
    ...(await sealLegacyIntegrationUrls(tenantId, { dryRun })).map((c) => ({ ...c, id: c.integration_id })),
    ...(await sealLegacyWebhookUrls(tenantId, { dryRun })).map((c) => ({ ...c, kind: 'webhook', id: c.webhook_id })),
  ];
  for (const c of changes) {
    if (c.skipped) {
      totals.skipped++;
      console.log(`${tenantId}: left ${c.kind} ${c.id} (${c.shown}) as it is: ${c.skipped}`);
      continue;
    }
    totals[c.kind === 'connector' ? 'connectors' : c.kind === 'webhook' ? 'webhooks' : 'integrations']++;
    console.log(`${tenantId}: ${verb} ${c.kind} ${c.id}: ${c.shown}`);
  }
  const audited = await auditEntriesWithUrlCredentials(tenantId);
  totals.audit += audited.length;
  for (const logId of audited)
    console.log(`${tenantId}: audit entry ${logId} holds a credential of a URL (left as it is)`);
}

if (onlyTenant) await migrateTenant(systemTenant(onlyTenant));
else
  for (let offset = 0; ; offset += 100) {
    const tenants = await listTenants({ limit: 100, offset });
    for (const tenant of tenants) await migrateTenant(systemTenant(tenant.tenant_id));
    if (tenants.length < 100) break;
  }

console.log(
  `done${dryRun ? ' (dry run: nothing written)' : ''}: ${verb} ${totals.integrations} integrations, ` +
    `${totals.connectors} connectors, ${totals.webhooks} webhooks; ${totals.skipped} left as they are; ` +
    `${totals.audit} audit entries hold a credential of a URL (not rewritten: rotate those credentials)`,
);
