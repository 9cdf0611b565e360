/**
 * Replays of a subscription's deliveries: one delivery, or every failed one since a time (the log
 * itself: shared/domain/webhooks/reads.ts). A replay is one more attempt with the same `webhook-id` and payload, outside the retry schedule;
 * it is audited, and the delivery is pending until the deliverer has tried.
 */
import { auditEntry, auditPut } from '../../db/audit/index.js';
import { ConditionFailed, transactWrite, type TransactItem } from '../../db/transact.js';
import {
  DELIVERY_RETENTION_DAYS,
  deliveriesSince,
  getDeliveryAndWebhook,
  publicDelivery,
  updateDelivery,
  type Delivery,
  type StoredDelivery,
} from '../../db/webhooks/index.js';
import { getWebhook, type StoredWebhook } from '../../db/webhooks/index.js';
import { ConflictError, invalid, NotFoundError } from '../../errors.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import type { Actor } from '../actor.js';
import { queueDeliveries } from './dispatch.js';
import { WEBHOOK_NOT_FOUND } from './reads.js';

export const DELIVERY_NOT_FOUND = 'Webhook delivery not found';
/** Failed deliveries replayed by one call at most. */
export const MAX_REPLAY = 1000;
/** A pending delivery whose attempt is this late was never queued (a replay that failed half-way): it may be replayed. */
const STUCK_AFTER_MS = 15 * 60_000;

function assertOn(webhook: StoredWebhook): void {
  if (!webhook.enabled)
    throw new ConflictError('The subscription is turned off: turn it on (PATCH enabled: true) before replaying');
}

function replayable(d: StoredDelivery, nowMs: number): boolean {
  if (d.status !== 'pending') return true;
  return d.next_attempt_at !== null && nowMs - Date.parse(d.next_attempt_at) > STUCK_AFTER_MS;
}

const asPending = (d: StoredDelivery, at: string): StoredDelivery => ({
  ...d,
  status: 'pending',
  next_attempt_at: at,
  failure_reason: null,
  updated_at: at,
});
const pendingWrite = (d: StoredDelivery, at: string): TransactItem =>
  updateDelivery(asPending(d, at), ['status', 'next_attempt_at', 'failure_reason']);

export async function replayDelivery(
  actor: Actor,
  tenantId: TenantId,
  webhookId: string,
  deliveryId: string,
): Promise<Delivery> {
  const { webhook, delivery } = await getDeliveryAndWebhook(tenantId, webhookId, deliveryId);
  if (!webhook) throw new NotFoundError(WEBHOOK_NOT_FOUND);
  if (!delivery) throw new NotFoundError(DELIVERY_NOT_FOUND);
  assertOn(webhook);
  const at = new Date().toISOString();
  if (!replayable(delivery, Date.parse(at)))
    throw new ConflictError('The delivery is pending: its next attempt is already scheduled');
  const audit = auditEntry(actor, {
    tenantId,
    action: 'webhook.delivery_replayed',
    resourceType: 'webhook',
    resourceId: webhookId,
    changes: { delivery_ids: [deliveryId] },
  });
  try {
    await transactWrite([pendingWrite(delivery, at), auditPut(audit)]);
  } catch (err) {
    if (err instanceof ConditionFailed && err.index === 0)
      throw new ConflictError('The delivery changed meanwhile (an attempt was recorded): read it again');
    throw err;
  }
  await queueDeliveries([{ tenant_id: tenantId, webhook_id: webhookId, delivery_id: deliveryId, replay: true }]);
  return publicDelivery(asPending(delivery, at));
}

export async function replayFailedSince(
  actor: Actor,
  tenantId: TenantId,
  webhookId: string,
  since: string,
): Promise<{ replayed: number; delivery_ids: string[]; has_more: boolean }> {
  // The tenant's own subscription first: another tenant's is unknown, whatever else is wrong.
  const webhook = await getWebhook(tenantId, webhookId);
  if (!webhook) throw new NotFoundError(WEBHOOK_NOT_FOUND);
  const sinceMs = Date.parse(since);
  const nowMs = Date.now();
  if (sinceMs > nowMs) throw invalid(['body', 'since'], 'must not be in the future', 'since');
  if (nowMs - sinceMs > DELIVERY_RETENTION_DAYS * 86_400_000) {
    throw invalid(
      ['body', 'since'],
      `deliveries are kept ${DELIVERY_RETENTION_DAYS} days: give a time within them`,
      'since',
    );
  }
  assertOn(webhook);
  const found = await deliveriesSince(tenantId, webhookId, sinceMs, 'failed', MAX_REPLAY + 1);
  const chosen = found.slice(0, MAX_REPLAY);
  const at = new Date(nowMs).toISOString();
  const ids = chosen.map((d) => d.delivery_id);
  if (chosen.length > 0) {
    const audit = auditEntry(actor, {
      tenantId,
      action: 'webhook.delivery_replayed',
      resourceType: 'webhook',
      resourceId: webhookId,
      changes: { since, delivery_ids: ids },
    });
    // A transaction holds 100 items: the audit entry and its day's count ride with the first 98
    // deliveries.
    const writes = chosen.map((d) => pendingWrite(d, at));
    try {
      for (let i = 0; i < writes.length; i += 98) {
        const chunk = writes.slice(i, i + 98);
        await transactWrite(i === 0 ? [...chunk, auditPut(audit)] : chunk);
      }
    } catch (err) {
      // An attempt was recorded meanwhile: what was written is pending, but not queued yet; a
      // second call finds those as stuck in 15 minutes, the rest at once.
      if (err instanceof ConditionFailed)
        throw new ConflictError('A delivery changed meanwhile (an attempt was recorded): call again');
      throw err;
    }
    await queueDeliveries(
      chosen.map((d) => ({ tenant_id: tenantId, webhook_id: webhookId, delivery_id: d.delivery_id, replay: true })),
    );
  }
  return { replayed: chosen.length, delivery_ids: ids, has_more: found.length > MAX_REPLAY };
}
