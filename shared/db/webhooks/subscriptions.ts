/**
 * Webhook subscriptions in the single table, in the tenant's partition (`T#tid`, `WEBHOOK#<v7>`),
 * at most 50 a tenant (shared/db/counted-items.ts). Signing secrets are kept sealed
 * (shared/adapters/secret-box.ts), and so are the credentials of a receiver's URL (`url` shows
 * them `REDACTED`: shared/url-secrets.ts).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TenantId } from '../../vocabulary/tenant.js';
import { db, TABLE } from '../client.js';
import { deleteCounted, getCounted, listCounted, putNewCounted, type CountedKind } from '../counted-items.js';
import { pick, versionedUpdate } from '../items.js';
import * as keys from '../item-keys.js';
import type { PageRequest } from '../query.js';
import type { TransactItem } from '../transact.js';

export interface Webhook {
  webhook_id: string;
  tenant_id: TenantId;
  url: string;
  event_types: string[];
  filters: { environment_id: string | null; min_severity: string | null };
  enabled: boolean;
  description: string | null;
  /**
   * Why the service turned it off, or null: `gone` (the receiver answered 410), `failing` (every
   * delivery failed for 5 days).
   */
  disabled_reason: string | null;
  /** Since when every attempt has failed (the first failure after the last success), or null. */
  failing_since: string | null;
  /** Until when the secret before the last rotation still signs, or null. */
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface StoredWebhook extends Webhook {
  secret_sealed: string;
  /** The credentials `REDACTED` in `url` (its UrlSecrets as JSON), sealed; absent or null when it has none. */
  url_secrets_sealed?: string | null;
  previous_secret_sealed: string | null;
  version: number;
}

/** What a subscription shows: an allowlist, so a field added to the item later is not answered by accident. */
const PUBLIC_FIELDS = [
  'webhook_id',
  'tenant_id',
  'url',
  'event_types',
  'filters',
  'enabled',
  'description',
  'disabled_reason',
  'failing_since',
  'previous_secret_expires_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof Webhook)[];

const fromItem = (item: Record<string, unknown>): StoredWebhook => item as unknown as StoredWebhook;

/** The subscription as answered: no key, version or sealed secret. */
export function publicWebhook(w: Webhook | StoredWebhook): Webhook {
  return pick<Webhook>({ ...w }, PUBLIC_FIELDS);
}

const KIND: CountedKind = {
  entity: 'WEBHOOK',
  prefix: 'WEBHOOK#',
  item: keys.webhook,
  count: keys.webhookCount,
  limit: 50,
};

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
export async function listWebhooks(
  tenantId: TenantId,
  page: PageRequest,
): Promise<{ items: StoredWebhook[]; total: number }> {
  const { items, total } = await listCounted(KIND, tenantId, page);
  return { items: items.map(fromItem), total };
}

export function updateWebhook(next: StoredWebhook, fields: (keyof StoredWebhook)[]): TransactItem {
  const changed = Object.fromEntries(fields.map((f) => [f, next[f]]));
  return versionedUpdate(
    keys.webhook(next.tenant_id, next.webhook_id),
    { ...changed, updated_at: next.updated_at },
    next.version,
  );
}

export function deleteWebhookItems(w: StoredWebhook): TransactItem[] {
  return deleteCounted(KIND, w.tenant_id, w.webhook_id, w.version);
}

/** Every subscription of the tenant (at most 50), in one Query: what the dispatcher matches a message with. */
export async function allWebhooks(tenantId: TenantId): Promise<StoredWebhook[]> {
  return (await listWebhooks(tenantId, { limit: KIND.limit, offset: 0 })).items;
}

/**
 * Sets `failing_since` unless it is set already (the first failure after a success) or, with
 * null, clears it unless it is clear. Not versioned: deliveries of one subscription run side by
 * side, and only the first of them changes anything. True when this call changed it.
 */
export async function setFailingSince(tenantId: TenantId, webhookId: string, at: string | null): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.webhook(tenantId, webhookId),
        UpdateExpression: 'SET failing_since = :at',
        ConditionExpression:
          at === null
            ? 'attribute_exists(PK) AND attribute_exists(failing_since) AND failing_since <> :null'
            : 'attribute_exists(PK) AND (attribute_not_exists(failing_since) OR failing_since = :null)',
        ExpressionAttributeValues: { ':at': at, ':null': null },
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/** Turns a subscription off for `reason`, if it is on (the transaction fails on item 0 otherwise). */
export function disableWebhookItem(tenantId: TenantId, webhookId: string, reason: string, at: string): TransactItem {
  return {
    Update: {
      TableName: TABLE,
      Key: keys.webhook(tenantId, webhookId),
      UpdateExpression: 'SET enabled = :off, disabled_reason = :reason, updated_at = :at, #version = #version + :one',
      ConditionExpression: 'attribute_exists(PK) AND enabled = :on',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':off': false, ':on': true, ':reason': reason, ':at': at, ':one': 1 },
    },
  };
}
