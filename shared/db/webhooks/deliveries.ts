/**
 * Webhook deliveries (docs/data-model.md, pattern 42): one item per message and subscription in
 * the subscription's own partition, `T#tid#WEBHOOK#<webhook id>`, `DELIVERY#<delivery id>`, with
 * every attempt made. Delivery ids are UUIDv7 made from the message's time, so the log reads
 * newest first by key. Each delivery is also in GSI1 under its status (pattern 42b), so the
 * deliveries of one status, and "failed since a time", are a key range of that index, whatever the
 * subscription's other deliveries. Kept 30 days (TTL).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { timeIdBound } from '../../ids.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { db, TABLE } from '../client.js';
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

/** The status index's keys of a delivery (GSI1): they move with its status. */
const statusKeys = (d: Pick<Delivery, 'tenant_id' | 'webhook_id' | 'delivery_id' | 'status'>) =>
  keys.webhookDeliveryByStatus(d.tenant_id, d.webhook_id, d.status, d.delivery_id);

const byStatus = (tenantId: string, webhookId: string, status: DeliveryStatus) =>
  keys.webhookDeliveryByStatus(tenantId, webhookId, status, '').GSI1PK;

/** The item of a new delivery, written only if it does not exist (a redelivered message writes nothing). */
export function putNewDelivery(d: Delivery): TransactItem {
  return putNew({
    ...keys.webhookDelivery(d.tenant_id, d.webhook_id, d.delivery_id),
    ...statusKeys(d),
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
    // A status written moves the delivery in the status index with it.
    { ...changed, ...(fields.includes('status') ? statusKeys(next) : {}), updated_at: next.updated_at },
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

/** A page of a subscription's deliveries, newest first, optionally of one status (its key range in GSI1). */
export async function listDeliveries(
  tenantId: TenantId,
  webhookId: string,
  page: PageRequest,
  status?: DeliveryStatus,
): Promise<StoredDelivery[]> {
  const items = await queryPage(
    status
      ? { index: 'GSI1', pk: byStatus(tenantId, webhookId, status), skPrefix: 'DELIVERY#', ascending: false }
      : { pk: partition(tenantId, webhookId), skPrefix: 'DELIVERY#', ascending: false },
    page,
  );
  return items as unknown as StoredDelivery[];
}

/**
 * The subscription's deliveries of `status` whose message is from `sinceMs` on, oldest first, at
 * most `max`: the range of GSI1 from that time's lowest UUIDv7, so it reads `max` items at most
 * (at most 30 days of deliveries are kept). The index is eventually consistent: a delivery whose
 * status changed a moment ago may be read as it was, and the write that follows, conditioned on
 * its version, then fails.
 */
export async function deliveriesSince(
  tenantId: TenantId,
  webhookId: string,
  sinceMs: number,
  status: DeliveryStatus,
  max: number,
): Promise<StoredDelivery[]> {
  const items = await queryPage(
    {
      index: 'GSI1',
      pk: byStatus(tenantId, webhookId, status),
      skBetween: [`DELIVERY#${timeIdBound(sinceMs, 'low')}`, 'DELIVERY#~'],
      ascending: true,
    },
    { limit: max, offset: 0 },
  );
  return items as unknown as StoredDelivery[];
}

/**
 * One-off migration (bin/migrate-delivery-index.ts): gives the subscription's deliveries written
 * before the status index their index keys. Idempotent: deliveries that have them are not
 * written; one whose status changes meanwhile is left to that change (which sets them).
 */
export async function reindexDeliveriesOfWebhook(tenantId: TenantId, webhookId: string): Promise<number> {
  let changed = 0;
  await forEachPage(
    {
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      FilterExpression: 'attribute_not_exists(GSI1PK)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pk': partition(tenantId, webhookId), ':sk': 'DELIVERY#' },
      ProjectionExpression: 'SK, delivery_id, #status',
    },
    async (page) => {
      for (const item of page.Items ?? []) {
        const status = item.status as DeliveryStatus;
        const index = statusKeys({
          tenant_id: tenantId,
          webhook_id: webhookId,
          delivery_id: String(item.delivery_id),
          status,
        });
        try {
          await db.send(
            new UpdateCommand({
              TableName: TABLE,
              Key: { PK: partition(tenantId, webhookId), SK: String(item.SK) },
              UpdateExpression: 'SET GSI1PK = :gpk, GSI1SK = :gsk',
              ConditionExpression: 'attribute_not_exists(GSI1PK) AND #status = :status',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':gpk': index.GSI1PK, ':gsk': index.GSI1SK, ':status': status },
            }),
          );
          changed++;
        } catch (err) {
          if (!(err instanceof ConditionalCheckFailedException)) throw err;
        }
      }
    },
  );
  return changed;
}
