/**
 * Webhook subscriptions in the single table, in the tenant's partition (`T#tid`, `WEBHOOK#<v7>`),
 * with a count item that the creating and deleting transactions move, so the limit per tenant
 * holds under concurrent creates. Signing secrets are kept sealed (shared/adapters/secret-box.ts).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TenantId } from '../vocabulary/tenant.js';
import { db, TABLE } from './client.js';
import { putNew, versionedDelete, versionedUpdate } from './items.js';
import { keys } from './keys.js';
import { queryPage, type PageRequest } from './query.js';
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

const INTERNAL = new Set(['PK', 'SK', 'entity', 'version', 'secret_sealed', 'previous_secret_sealed']);

const fromItem = (item: Record<string, unknown>): StoredWebhook => item as unknown as StoredWebhook;

/** The subscription as answered: no key, version or sealed secret. */
export function publicWebhook(w: Webhook | StoredWebhook): Webhook {
  return Object.fromEntries(Object.entries(w).filter(([k]) => !INTERNAL.has(k))) as unknown as Webhook;
}

export function putNewWebhook(w: Omit<StoredWebhook, 'version'>, limit: number): TransactItem[] {
  return [
    putNew({ ...keys.webhook(w.tenant_id, w.webhook_id), entity: 'WEBHOOK', ...w, version: 1 }),
    {
      Update: {
        TableName: TABLE,
        Key: keys.webhookCount(w.tenant_id),
        UpdateExpression: 'ADD #count :one',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':one': 1, ':limit': limit },
      },
    },
  ];
}

export async function getWebhook(tenantId: TenantId, webhookId: string): Promise<StoredWebhook | null> {
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: keys.webhook(tenantId, webhookId), ConsistentRead: true }));
  return out.Item ? fromItem(out.Item) : null;
}

/** A page of the tenant's subscriptions, oldest first, and how many it has in all. */
export async function listWebhooks(tenantId: TenantId, page: PageRequest): Promise<{ items: StoredWebhook[]; total: number }> {
  const { PK } = keys.webhook(tenantId, '');
  // All of them (at most the limit per tenant, 50): the total is their number.
  const all = await queryPage({ pk: PK, skPrefix: 'WEBHOOK#', consistent: true }, { limit: 1000, offset: 0 });
  return { items: all.slice(page.offset, page.offset + page.limit).map(fromItem), total: all.length };
}

export function updateWebhook(next: StoredWebhook, fields: (keyof StoredWebhook)[]): TransactItem {
  const changed = Object.fromEntries(fields.map((f) => [f, next[f]]));
  return versionedUpdate(keys.webhook(next.tenant_id, next.webhook_id), { ...changed, updated_at: next.updated_at }, next.version);
}

export function deleteWebhookItems(w: StoredWebhook): TransactItem[] {
  return [
    versionedDelete(keys.webhook(w.tenant_id, w.webhook_id), w.version),
    {
      Update: {
        TableName: TABLE,
        Key: keys.webhookCount(w.tenant_id),
        UpdateExpression: 'ADD #count :minus',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':minus': -1 },
      },
    },
  ];
}
