/**
 * Webhook deliveries (docs/data-model.md, pattern 42): one item per message and subscription in
 * the subscription's own partition, `T#tid#WEBHOOK#<webhook id>`, `DELIVERY#<delivery id>`, with
 * every attempt made. Delivery ids are UUIDv7 made from the message's time, so the log reads
 * newest first by key and "failed since a time" is a key range. Kept 30 days (TTL).
 */
import { timeIdBound } from '../../ids.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { TABLE } from '../client.js';
import { pick, putNew, versionedUpdate } from '../items.js';
import * as keys from '../item-keys.js';
import { forEachPage, queryPage, type PageRequest } from '../query.js';
import { readItems } from '../read-batch.js';
import type { StoredWebhook } from './subscriptions.js';
import type { TransactItem } from '../transact.js';

/** How long a delivery and its attempts are kept. */
export const DELIVERY_RETENTION_DAYS = 30;

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryAttempt {
  /** 1 for the first. */
  attempt: number;
  at: string;
  /** The receiver's HTTP status; null when there was no answer. */
  status_code: number | null;
  latency_ms: number;
  /** Why it failed when no status says it (refused address, timeout, connection error). */
  error: string | null;
  /** A replay asked for by the subscription's owner, outside the retry schedule. */
  replay: boolean;
}

export interface Delivery {
  delivery_id: string;
  webhook_id: string;
  tenant_id: TenantId;
  event_type: string;
  /** The bus message delivered (an event's id, or an outbox message's id). */
  message_id: string;
  /** The body sent, exactly: `{type, timestamp, data}`. */
  payload: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** When the next attempt is due while pending; null otherwise. */
  next_attempt_at: string | null;
  /** Why it failed for good: `exhausted`, `gone` (410), `subscription_disabled`, `subscription_deleted`, `failing` (the subscription was turned off). */
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface StoredDelivery extends Delivery {
  version: number;
}

const PUBLIC_FIELDS = [
  'delivery_id',
  'webhook_id',
  'tenant_id',
  'event_type',
  'message_id',
  'payload',
  'status',
  'attempts',
  'next_attempt_at',
  'failure_reason',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof Delivery)[];

export function publicDelivery(d: Delivery): Delivery {
  return pick<Delivery>({ ...d }, PUBLIC_FIELDS);
}

const partition = (tenantId: string, webhookId: string) => keys.webhookDelivery(tenantId, webhookId, '').PK;

/** The item of a new delivery, written only if it does not exist (a redelivered message writes nothing). */
export function putNewDelivery(d: Delivery): TransactItem {
  return putNew({
    ...keys.webhookDelivery(d.tenant_id, d.webhook_id, d.delivery_id),
    entity: 'WEBHOOK_DELIVERY',
    ...d,
    version: 1,
    expires_at: Math.floor(Date.parse(d.created_at) / 1000) + DELIVERY_RETENTION_DAYS * 86_400,
  });
}

export function updateDelivery(next: StoredDelivery, fields: (keyof Delivery)[]): TransactItem {
  const changed = Object.fromEntries(fields.map((f) => [f, next[f]]));
  return versionedUpdate(
    keys.webhookDelivery(next.tenant_id, next.webhook_id, next.delivery_id),
    { ...changed, updated_at: next.updated_at },
    next.version,
  );
}

/** Several deliveries of a tenant by key, in one round trip; those that do not exist are left out. */
export async function getDeliveries(
  tenantId: TenantId,
  refs: readonly { webhookId: string; deliveryId: string }[],
): Promise<StoredDelivery[]> {
  const wanted = refs.map((r) => keys.webhookDelivery(tenantId, r.webhookId, r.deliveryId));
  const read = await readItems(wanted);
  return wanted.flatMap((k) => {
    const item = read.get(k);
    return item ? [item as unknown as StoredDelivery] : [];
  });
}

/** A delivery and its subscription, in one round trip (what the deliverer needs). */
export async function getDeliveryAndWebhook(
  tenantId: TenantId,
  webhookId: string,
  deliveryId: string,
): Promise<{ delivery: StoredDelivery | null; webhook: StoredWebhook | null }> {
  const deliveryKey = keys.webhookDelivery(tenantId, webhookId, deliveryId);
  const webhookKey = keys.webhook(tenantId, webhookId);
  const read = await readItems([deliveryKey, webhookKey]);
  return {
    delivery: (read.get(deliveryKey) ?? null) as unknown as StoredDelivery | null,
    webhook: (read.get(webhookKey) ?? null) as unknown as StoredWebhook | null,
  };
}

/** A page of a subscription's deliveries, newest first, optionally of one status. */
export async function listDeliveries(
  tenantId: TenantId,
  webhookId: string,
  page: PageRequest,
  status?: DeliveryStatus,
): Promise<StoredDelivery[]> {
  const items = await queryPage(
    { pk: partition(tenantId, webhookId), skPrefix: 'DELIVERY#', ascending: false, filter: { status } },
    page,
  );
  return items as unknown as StoredDelivery[];
}

/**
 * The subscription's deliveries of `status` whose message is from `sinceMs` on, oldest first, at
 * most `max` (the key range from that time's lowest UUIDv7; at most 30 days of deliveries are kept).
 */
export async function deliveriesSince(
  tenantId: TenantId,
  webhookId: string,
  sinceMs: number,
  status: DeliveryStatus,
  max: number,
): Promise<StoredDelivery[]> {
  const found: StoredDelivery[] = [];
  await forEachPage(
    {
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      FilterExpression: '#status = :status',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':pk': partition(tenantId, webhookId),
        ':from': `DELIVERY#${timeIdBound(sinceMs, 'low')}`,
        ':to': 'DELIVERY#~',
        ':status': status,
      },
      ConsistentRead: true,
    },
    (page) => {
      if (found.length < max) found.push(...((page.Items ?? []) as unknown as StoredDelivery[]));
    },
  );
  return found.slice(0, max);
}
