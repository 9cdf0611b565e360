/**
 * Webhook subscriptions in the single table, in the tenant's partition (`T#tid`, `WEBHOOK#<v7>`),
 * at most 50 a tenant (shared/db/counted-items.ts). Signing secrets are kept sealed
 * (shared/adapters/secret-box.ts).
 */
import type { TenantId } from '../vocabulary/tenant.js';
import { deleteCounted, getCounted, listCounted, putNewCounted, type CountedKind } from './counted-items.js';
import { pick, versionedUpdate } from './items.js';
import { keys } from './keys.js';
import type { PageRequest } from './query.js';
import type { TransactItem } from './transact.js';

export interface Webhook {
  webhook_id: string;
  tenant_id: TenantId;
  url: string;
  event_types: string[];
  filters: { environment_id: string | null; min_severity: string | null };
  enabled: boolean;
  description: string | null;
  /** Why the service turned it off (`gone`: the receiver answered 410), or null. */
  disabled_reason: string | null;
  /** Until when the secret before the last rotation still signs, or null. */
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface StoredWebhook extends Webhook {
  secret_sealed: string;
  previous_secret_sealed: string | null;
  version: number;
}

/** What a subscription shows: an allowlist, so a field added to the item later is not answered by accident. */
const PUBLIC_FIELDS = [
  'webhook_id', 'tenant_id', 'url', 'event_types', 'filters', 'enabled', 'description', 'disabled_reason',
  'previous_secret_expires_at', 'created_at', 'updated_at',
] as const satisfies readonly (keyof Webhook)[];

const fromItem = (item: Record<string, unknown>): StoredWebhook => item as unknown as StoredWebhook;

/** The subscription as answered: no key, version or sealed secret. */
export function publicWebhook(w: Webhook | StoredWebhook): Webhook {
  return pick<Webhook>({ ...w }, PUBLIC_FIELDS);
}

const KIND: CountedKind = { entity: 'WEBHOOK', prefix: 'WEBHOOK#', item: keys.webhook, count: keys.webhookCount, limit: 50 };

/** Subscriptions per tenant. */
export const MAX_WEBHOOKS_PER_TENANT = KIND.limit;

/** The item and the count's step; the count's condition (the limit) is item 1. */
export function putNewWebhook(w: Omit<StoredWebhook, 'version'>): TransactItem[] {
  return putNewCounted(KIND, w.tenant_id, w.webhook_id, { ...w });
}

export async function getWebhook(tenantId: TenantId, webhookId: string): Promise<StoredWebhook | null> {
  const item = await getCounted(KIND, tenantId, webhookId);
  return item ? fromItem(item) : null;
}

/** A page of the tenant's subscriptions, oldest first, and how many it has in all. */
export async function listWebhooks(tenantId: TenantId, page: PageRequest): Promise<{ items: StoredWebhook[]; total: number }> {
  const { items, total } = await listCounted(KIND, tenantId, page);
  return { items: items.map(fromItem), total };
}

export function updateWebhook(next: StoredWebhook, fields: (keyof StoredWebhook)[]): TransactItem {
  const changed = Object.fromEntries(fields.map((f) => [f, next[f]]));
  return versionedUpdate(keys.webhook(next.tenant_id, next.webhook_id), { ...changed, updated_at: next.updated_at }, next.version);
}

export function deleteWebhookItems(w: StoredWebhook): TransactItem[] {
  return deleteCounted(KIND, w.tenant_id, w.webhook_id, w.version);
}
