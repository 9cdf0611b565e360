/**
 * One attempt of a webhook delivery: read the delivery and its subscription (one round trip),
 * POST the payload signed with the Standard Webhooks headers (every secret that signs now) through
 * the outbound guard, and record what happened:
 *
 * - a 2xx delivers it (and ends the subscription's failing streak);
 * - a 410 fails it and turns the subscription off at once;
 * - anything else waits for the next step of the retry schedule, which the caller makes the queue
 *   keep (its visibility), unless the schedule is spent (the delivery fails, goes to the
 *   dead-letter queue, and `webhook.delivery_exhausted` is announced) or every attempt to the
 *   subscription has failed for 5 days (it is turned off, and its owner told).
 *
 * The clock is the caller's, so tests walk the 27-hour schedule in a moment. Each record is
 * conditioned on the delivery as read: two attempts of one delivery at once record one.
 */
import { outboundPolicy } from '../outbound-policy.js';
import { mailer, emailConfigured } from '../../adapters/mailer.js';
import { postOutbound } from '../../adapters/outbound-http.js';
import { queues } from '../../adapters/queue.js';
import { auditEntry, auditPut } from '../../db/audit/index.js';
import { outboxPut } from '../../db/outbox.js';
import { getTenantConfig } from '../../db/tenants.js';
import { ConditionFailed, transactWrite, type TransactItem } from '../../db/transact.js';
import {
  getDeliveryAndWebhook,
  updateDelivery,
  type DeliveryAttempt,
  type StoredDelivery,
  disableWebhookItem,
  setFailingSince,
  type StoredWebhook,
} from '../../db/webhooks/index.js';
import { log } from '../../log.js';
import { metrics } from '../../metrics.js';
import { systemTenant, type TenantId } from '../../vocabulary/tenant.js';
import { systemActor } from '../actor.js';
import { DELIVERIES_QUEUE, type DeliveryJob } from './dispatch.js';
import { failingTooLong, meaningOf, nextRetryDelayMs } from './delivery-policy.js';
import { receiverUrlOf, signingSecrets } from './subscriptions.js';
import { signedHeaders } from './signing.js';

/** The bus source of the webhooks' own messages (docs/events.md); never delivered to webhooks. */
export const WEBHOOKS_SOURCE = 'gatehouse.webhooks';

/** A receiver gets this long to answer. */
export const DELIVERY_TIMEOUT_MS = 15_000;

export type AttemptOutcome =
  /** Nothing to do: unknown, finished already, or another attempt recorded first. */
  | { kind: 'skipped'; reason: string }
  | { kind: 'delivered' }
  | { kind: 'failed'; reason: string }
  /** Try again after this many seconds (the queue holds the message that long). */
  | { kind: 'retry'; delaySeconds: number };

export interface DeliverOptions {
  /** Milliseconds now. */
  clock?: () => number;
  /** 0..1, for the jitter. */
  random?: () => number;
}

const iso = (ms: number) => new Date(ms).toISOString();

export async function attemptDelivery(job: DeliveryJob, options: DeliverOptions = {}): Promise<AttemptOutcome> {
  const clock = options.clock ?? Date.now;
  const tenantId = systemTenant(job.tenant_id);
  const { delivery, webhook } = await getDeliveryAndWebhook(tenantId, job.webhook_id, job.delivery_id);
  if (!delivery) return { kind: 'skipped', reason: 'no such delivery' };
  if (delivery.status !== 'pending') return { kind: 'skipped', reason: `already ${delivery.status}` };
  const startedMs = clock();
  if (!webhook) return fail(delivery, 'subscription_deleted', startedMs, []);
  if (!webhook.enabled) return fail(delivery, 'subscription_disabled', startedMs, []);

  const headers = signedHeaders(
    delivery.delivery_id,
    new Date(startedMs),
    delivery.payload,
    await signingSecrets(webhook, startedMs),
  );
  const answer = await postOutbound(
    await receiverUrlOf(webhook),
    { headers, body: delivery.payload, timeoutMs: DELIVERY_TIMEOUT_MS },
    outboundPolicy(),
  );
  const nowMs = Math.max(clock(), startedMs);
  const attempt: DeliveryAttempt = {
    attempt: delivery.attempts.length + 1,
    at: iso(startedMs),
    status_code: answer.status,
    latency_ms: answer.latencyMs,
    error: answer.error,
    replay: Boolean(job.replay),
  };
  const attempts = [...delivery.attempts, attempt];

  const meaning = meaningOf(answer.status);
  metrics.webhookAttempt(meaning === 'delivered' ? 'success' : 'failure');
  if (meaning === 'delivered') {
    const recorded = await record(
      delivery,
      { status: 'delivered', attempts, next_attempt_at: null, failure_reason: null },
      nowMs,
    );
    if (recorded && webhook.failing_since) await setFailingSince(tenantId, webhook.webhook_id, null);
    return recorded ? { kind: 'delivered' } : { kind: 'skipped', reason: 'recorded by another attempt' };
  }
  if (meaning === 'gone') return disableAndFail(delivery, webhook, 'gone', attempts, nowMs);
  if (job.replay) return fail(delivery, 'replay_failed', nowMs, attempts);

  // Failing since the first failure after the last success.
  const failingSince = webhook.failing_since ?? iso(startedMs);
  if (!webhook.failing_since) await setFailingSince(tenantId, webhook.webhook_id, failingSince);
  if (failingTooLong(Date.parse(failingSince), nowMs))
    return disableAndFail(delivery, webhook, 'failing', attempts, nowMs);

  const delayMs = nextRetryDelayMs(attempts.filter((a) => !a.replay).length, options.random);
  if (delayMs === null) return exhaust(delivery, webhook, attempts, nowMs);
  const recorded = await record(
    delivery,
    { status: 'pending', attempts, next_attempt_at: iso(nowMs + delayMs), failure_reason: null },
    nowMs,
  );
  return recorded
    ? { kind: 'retry', delaySeconds: Math.ceil(delayMs / 1000) }
    : { kind: 'skipped', reason: 'recorded by another attempt' };
}

type Change = Pick<StoredDelivery, 'status' | 'attempts' | 'next_attempt_at' | 'failure_reason'>;

function deliveryWrite(delivery: StoredDelivery, change: Change, nowMs: number): TransactItem {
  return updateDelivery({ ...delivery, ...change, updated_at: iso(nowMs) }, [
    'status',
    'attempts',
    'next_attempt_at',
    'failure_reason',
  ]);
}

/** Writes the change (with `also` in the same transaction); false when another attempt changed the delivery first. */
async function record(
  delivery: StoredDelivery,
  change: Change,
  nowMs: number,
  also: TransactItem[] = [],
): Promise<boolean> {
  try {
    await transactWrite([deliveryWrite(delivery, change, nowMs), ...also]);
    return true;
  } catch (err) {
    if (err instanceof ConditionFailed && err.index === 0) return false;
    throw err;
  }
}

async function fail(
  delivery: StoredDelivery,
  reason: string,
  nowMs: number,
  attempts: DeliveryAttempt[],
): Promise<AttemptOutcome> {
  const recorded = await record(
    delivery,
    { status: 'failed', attempts, next_attempt_at: null, failure_reason: reason },
    nowMs,
  );
  return recorded ? { kind: 'failed', reason } : { kind: 'skipped', reason: 'recorded by another attempt' };
}

/**
 * The schedule is spent: the job goes to the dead-letter queue (first, so a crash after it
 * leaves the delivery pending and it is tried again, rather than failed and never kept), then
 * the delivery fails and `webhook.delivery_exhausted` is announced in the same transaction.
 */
async function exhaust(
  delivery: StoredDelivery,
  webhook: StoredWebhook,
  attempts: DeliveryAttempt[],
  nowMs: number,
): Promise<AttemptOutcome> {
  const last = attempts.at(-1)!;
  await queues().send(`${DELIVERIES_QUEUE}:dead-letters`, [
    {
      body: JSON.stringify({
        tenant_id: delivery.tenant_id,
        webhook_id: delivery.webhook_id,
        delivery_id: delivery.delivery_id,
        reason: 'exhausted',
        attempts: attempts.length,
        last_status_code: last.status_code,
        last_error: last.error,
        failed_at: iso(nowMs),
      }),
    },
  ]);
  const announce = outboxPut({
    tenantId: delivery.tenant_id,
    source: WEBHOOKS_SOURCE,
    detailType: 'webhook.delivery_exhausted',
    detail: {
      webhook_id: webhook.webhook_id,
      delivery_id: delivery.delivery_id,
      event_type: delivery.event_type,
      message_id: delivery.message_id,
      url: webhook.url,
      attempts: attempts.length,
      last_status_code: last.status_code,
      last_error: last.error,
    },
  });
  const recorded = await record(
    delivery,
    { status: 'failed', attempts, next_attempt_at: null, failure_reason: 'exhausted' },
    nowMs,
    [announce],
  );
  if (recorded) metrics.webhookExhausted();
  return recorded
    ? { kind: 'failed', reason: 'exhausted' }
    : { kind: 'skipped', reason: 'recorded by another attempt' };
}

/**
 * Turns the subscription off (`gone` or `failing`), fails the delivery, audits it as the system
 * and announces `webhook.disabled`, in one transaction; then tells the owner by email. When the
 * subscription was off already only the delivery is written.
 */
async function disableAndFail(
  delivery: StoredDelivery,
  webhook: StoredWebhook,
  reason: 'gone' | 'failing',
  attempts: DeliveryAttempt[],
  nowMs: number,
): Promise<AttemptOutcome> {
  const tenantId = systemTenant(delivery.tenant_id);
  const at = iso(nowMs);
  const failed: Change = { status: 'failed', attempts, next_attempt_at: null, failure_reason: reason };
  const detail = {
    webhook_id: webhook.webhook_id,
    url: webhook.url,
    reason,
    failing_since: webhook.failing_since ?? null,
    disabled_at: at,
  };
  try {
    await transactWrite([
      disableWebhookItem(tenantId, webhook.webhook_id, reason, at),
      deliveryWrite(delivery, failed, nowMs),
      auditPut(
        auditEntry(systemActor(delivery.delivery_id), {
          tenantId,
          action: 'webhook.disabled',
          resourceType: 'webhook',
          resourceId: webhook.webhook_id,
          changes: { enabled: { from: true, to: false }, disabled_reason: { from: null, to: reason } },
        }),
      ),
      outboxPut({ tenantId, source: WEBHOOKS_SOURCE, detailType: 'webhook.disabled', detail }),
    ]);
  } catch (err) {
    if (!(err instanceof ConditionFailed)) throw err;
    if (err.index === 1) return { kind: 'skipped', reason: 'recorded by another attempt' };
    // Off already (another delivery turned it off, or its owner did): only this delivery fails.
    return fail(delivery, reason, nowMs, attempts);
  }
  await tellOwner(tenantId, webhook, reason, at);
  return { kind: 'failed', reason };
}

/** Email to the tenant's notification recipients, where email is configured; a failure is logged, not retried. */
async function tellOwner(
  tenantId: TenantId,
  webhook: StoredWebhook,
  reason: 'gone' | 'failing',
  at: string,
): Promise<void> {
  if (!emailConfigured()) return;
  const recipients = (await getTenantConfig(tenantId))?.notifications?.email_recipients ?? [];
  if (recipients.length === 0) return;
  const why =
    reason === 'gone'
      ? 'its receiver answered 410 Gone, which says it no longer wants deliveries'
      : `every delivery to it has failed since ${webhook.failing_since ?? 'five days ago'}`;
  try {
    await mailer().send({
      to: [...recipients],
      subject: 'Gatehouse turned off a webhook subscription',
      text:
        `Gatehouse turned off the webhook subscription ${webhook.webhook_id} (${webhook.url}) at ${at}: ${why}.\n\n` +
        'No more deliveries are attempted. Fix the receiver, then turn the subscription on again ' +
        `(PATCH /api/v1/webhooks/${webhook.webhook_id} with {"enabled": true}) and replay what failed ` +
        `(POST /api/v1/webhooks/${webhook.webhook_id}/deliveries/replay).\n`,
    });
  } catch (err) {
    // The subscription is off and announced on the bus either way; the email is the courtesy.
    log.error('could not email the owner of a webhook subscription turned off', {
      webhook_id: webhook.webhook_id,
      error: (err as Error).message,
    });
  }
}
