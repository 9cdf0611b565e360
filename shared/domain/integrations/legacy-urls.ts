/**
 * Integrations saved before credentials in URLs were sealed (bin/migrate-url-secrets.ts): their
 * `endpoint`, and a connector's `url`, still hold the URL called, credentials and all, in the
 * clear. The URL called was sealed with the configuration then as now, so the item needs only its
 * shown form: the credentials `REDACTED`, and a connector's `source` kept (where its records are,
 * from the URL called: shared/domain/connectors/feed-sources.ts). A URL the sealed configuration
 * does not hold is left as it is and named: redacting it would lose the credential.
 */
import {
  getIntegration,
  listIntegrations,
  MAX_INTEGRATIONS_PER_TENANT,
  updateIntegration,
  type StoredIntegration,
} from '../../db/integrations.js';
import { retryOnConcurrentChange, transactWrite } from '../../db/transact.js';
import { ConflictError } from '../../errors.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { givesCredentials, redactUrl } from '../../url-secrets.js';
import { keptSettings } from '../connectors/index.js';
import { openIntegrationConfig } from './writes.js';

/** One integration the migration rewrote (or would), or left as it is and why. */
export interface LegacyUrlChange {
  integration_id: string;
  /** `connector` for a `feed` integration. */
  kind: 'integration' | 'connector';
  /** The URL as it is now shown (credentials `REDACTED`). */
  shown: string;
  /** Why it was left as it is; absent when it was rewritten. */
  skipped?: string;
}

/** The URLs of the item that carry credentials in the clear. */
const clearUrls = (i: StoredIntegration): string[] =>
  [i.endpoint, i.connector?.url].filter((u): u is string => u !== undefined && givesCredentials(u));

/** The item as kept since credentials are sealed, or null when it needs no change. */
function shownItem(i: StoredIntegration): StoredIntegration | null {
  if (clearUrls(i).length === 0) return null;
  return {
    ...i,
    endpoint: redactUrl(i.endpoint),
    ...(i.connector ? { connector: keptSettings(i.connector) } : {}),
  };
}

/** Why the URLs cannot be redacted: one is not in the sealed configuration (null: they all are). */
async function unsealedUrl(i: StoredIntegration): Promise<string | null> {
  const config = await openIntegrationConfig(i);
  const sealed = [config.url, config.endpoint, config.webhook_url];
  return clearUrls(i).some((u) => !sealed.includes(u))
    ? 'its sealed configuration does not hold this URL: redacting it would lose the credential'
    : null;
}

/**
 * Rewrites the tenant's integrations whose URLs still carry credentials in the clear to their
 * shown form, each under its version (an edit made meanwhile is read again, not overwritten);
 * with `dryRun`, only says which. Idempotent: an integration in the shown form is not written.
 */
export async function sealLegacyIntegrationUrls(
  tenantId: TenantId,
  options: { dryRun: boolean },
): Promise<LegacyUrlChange[]> {
  const changes: LegacyUrlChange[] = [];
  const all = await listIntegrations(tenantId, { limit: MAX_INTEGRATIONS_PER_TENANT, offset: 0 });
  for (const listed of all) {
    if (!shownItem(listed)) continue;
    const change: LegacyUrlChange = {
      integration_id: listed.integration_id,
      kind: listed.kind === 'feed' ? 'connector' : 'integration',
      shown: redactUrl(listed.connector?.url ?? listed.endpoint),
    };
    changes.push(change);
    try {
      await retryOnConcurrentChange(async () => {
        const current = await getIntegration(tenantId, listed.integration_id);
        const next = current && shownItem(current);
        if (!current || !next) {
          change.skipped = 'changed meanwhile: deleted, or saved again in the shown form';
          return;
        }
        change.skipped = (await unsealedUrl(current)) ?? undefined;
        if (change.skipped || options.dryRun) return;
        // The version read is the condition; updated_at stays: the tenant changed nothing.
        await transactWrite([updateIntegration(next, next.connector ? ['endpoint', 'connector'] : ['endpoint'])]);
      });
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
      change.skipped = 'changed by another request at each of 3 tries: run again';
    }
  }
  return changes;
}
