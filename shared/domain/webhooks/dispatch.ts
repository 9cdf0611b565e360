/**
 * Dispatching a bus message to webhooks: the tenant's subscriptions are read by key (one Query of
 * its partition, at most 50; once per tenant in a batch of messages), those that want the message get one delivery each, written in one
 * transaction, and each delivery is queued for the deliverer.
 *
 * Idempotent: a delivery's id comes from the message and the subscription, and its item is only
 * written when new. A redelivered message writes what is missing and queues again only deliveries
 * that no attempt has touched yet (the one before may have stopped between writing and queueing);
 * a delivery queued twice is attempted once (the deliverer skips what is no longer pending, and
 * records each attempt conditioned on what it read).
 */
import { queues } from '../../adapters/queue.js';
import {
  getDeliveries,
  putNewDelivery,
  type Delivery,
  allWebhooks,
  type StoredWebhook,
} from '../../db/webhooks/index.js';
import { ConditionFailed, transactWrite } from '../../db/transact.js';
import { currentCorrelationId } from '../../log.js';
import { systemTenant, type TenantId } from '../../vocabulary/tenant.js';
import { deliveryBody, deliveryId, subscribes, type BusMessage } from './delivery-policy.js';

/** What the deliveries queue carries: which delivery to attempt. */
export interface DeliveryJob {
  tenant_id: string;
  webhook_id: string;
  delivery_id: string;
  /** A replay asked for by the owner: one attempt, outside the schedule. */
  replay?: boolean;
  /** The correlation id of the change delivered, or of the replay's request (shared/log.ts): the attempt's lines carry it. */
  correlation_id?: string;
}

export const DELIVERIES_QUEUE = 'webhook-deliveries';

/** A delivery not attempted yet, due `at`. */
export function pendingDelivery(
  d: {
    deliveryId: string;
    webhookId: string;
    tenantId: TenantId;
    eventType: string;
    messageId: string;
    payload: string;
  },
  at: string,
): Delivery {
  return {
    delivery_id: d.deliveryId,
    webhook_id: d.webhookId,
    tenant_id: d.tenantId,
    event_type: d.eventType,
    message_id: d.messageId,
    payload: d.payload,
    status: 'pending',
    attempts: [],
    next_attempt_at: at,
    failure_reason: null,
    created_at: at,
    updated_at: at,
  };
}

/** Queues the deliveries for their (next) attempt, each with its correlation id (what runs now's, unless it has one). */
export async function queueDeliveries(jobs: readonly DeliveryJob[]): Promise<void> {
  const correlationId = currentCorrelationId();
  if (jobs.length > 0)
    await queues().send(
      DELIVERIES_QUEUE,
      jobs.map((job) => ({
        body: JSON.stringify(correlationId && !job.correlation_id ? { ...job, correlation_id: correlationId } : job),
      })),
    );
}

/** Every subscription of the tenant: one read, shared by the messages of one tenant in a batch. */
export function subscriptionsOf(tenantId: string): Promise<StoredWebhook[]> {
  return allWebhooks(systemTenant(tenantId));
}

/**
 * Makes and queues the message's deliveries; returns how many subscriptions want it. The tenant's
 * subscriptions are read unless given (as read for the batch, by `subscriptionsOf`).
 */
export async function dispatchMessage(
  message: BusMessage,
  at: string,
  subscriptions?: readonly StoredWebhook[],
): Promise<number> {
  const tenantId = systemTenant(message.tenantId);
  const wanted = (subscriptions ?? (await subscriptionsOf(tenantId))).filter((w) => subscribes(w, message));
  if (wanted.length === 0) return 0;
  const payload = deliveryBody(message);
  const deliveries = wanted.map((w) =>
    pendingDelivery(
      {
        deliveryId: deliveryId(message, w.webhook_id),
        webhookId: w.webhook_id,
        tenantId,
        eventType: message.type,
        messageId: message.messageId,
        payload,
      },
      at,
    ),
  );
  let toQueue = deliveries;
  try {
    await transactWrite(deliveries.map(putNewDelivery));
  } catch (err) {
    if (!(err instanceof ConditionFailed)) throw err;
    // A redelivered message: some (or all) of its deliveries exist.
    const existing = await getDeliveries(
      tenantId,
      deliveries.map((d) => ({ webhookId: d.webhook_id, deliveryId: d.delivery_id })),
    );
    const known = new Set(existing.map((d) => d.delivery_id));
    const missing = deliveries.filter((d) => !known.has(d.delivery_id));
    if (missing.length > 0) await transactWrite(missing.map(putNewDelivery));
    toQueue = [...missing, ...existing.filter((d) => d.status === 'pending' && d.attempts.length === 0)];
  }
  await queueDeliveries(
    toQueue.map((d) => ({
      tenant_id: d.tenant_id,
      webhook_id: d.webhook_id,
      delivery_id: d.delivery_id,
      ...(message.correlationId ? { correlation_id: message.correlationId } : {}),
    })),
  );
  return wanted.length;
}
