/**
 * Subscriptions saved before credentials in URLs were sealed (bin/migrate-url-secrets.ts): their
 * `url` still holds the receiver's URL, credentials and all, in the clear, and no
 * `url_secrets_sealed`. Each is split as a subscription saved now is: the shown form in `url`,
 * the credentials sealed beside it; a delivery joins them again to the very same URL.
 */
import {
  getWebhook,
  listWebhooks,
  MAX_WEBHOOKS_PER_TENANT,
  updateWebhook,
  type StoredWebhook,
} from '../../db/webhooks/index.js';
import { retryOnConcurrentChange, transactWrite } from '../../db/transact.js';
import { ConflictError } from '../../errors.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { givesCredentials, redactUrl } from '../../url-secrets.js';
import { sealedUrl } from './subscriptions.js';

/** One subscription the migration rewrote (or would), or left as it is and why. */
export interface LegacyWebhookUrlChange {
  webhook_id: string;
  /** The URL as it is now shown (credentials `REDACTED`). */
  shown: string;
  /** Why it was left as it is; absent when it was rewritten. */
  skipped?: string;
}

/** Whether the subscription keeps credentials in the clear, and none sealed (as the code before kept them). */
const isLegacy = (w: StoredWebhook) => !w.url_secrets_sealed && givesCredentials(w.url);

/**
 * Rewrites the tenant's subscriptions whose URL still carries credentials in the clear to the
 * shown form and the sealed parts, each under its version (an edit made meanwhile is read again,
 * not overwritten); with `dryRun`, only says which. Idempotent: a split URL is not written.
 */
export async function sealLegacyWebhookUrls(
  tenantId: TenantId,
  options: { dryRun: boolean },
): Promise<LegacyWebhookUrlChange[]> {
  const changes: LegacyWebhookUrlChange[] = [];
  const { items } = await listWebhooks(tenantId, { limit: MAX_WEBHOOKS_PER_TENANT, offset: 0 });
  for (const listed of items.filter(isLegacy)) {
    const change: LegacyWebhookUrlChange = { webhook_id: listed.webhook_id, shown: redactUrl(listed.url) };
    changes.push(change);
    if (options.dryRun) continue;
    try {
      await retryOnConcurrentChange(async () => {
        const current = await getWebhook(tenantId, listed.webhook_id);
        if (!current || !isLegacy(current)) {
          change.skipped = 'changed meanwhile: deleted, or saved again in the shown form';
          return;
        }
        const next: StoredWebhook = { ...current, ...(await sealedUrl(current.url, tenantId, current.webhook_id)) };
        // The version read is the condition; updated_at stays: the tenant changed nothing.
        await transactWrite([updateWebhook(next, ['url', 'url_secrets_sealed'])]);
      });
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
      change.skipped = 'changed by another request at each of 3 tries: run again';
    }
  }
  return changes;
}
