/**
 * The rules of webhook delivery, apart from any queue or clock: which subscriptions a bus message
 * goes to, the delivery's stable id and body, what a receiver's answer means, when to try again
 * (Svix's schedule with jitter), and when a subscription that keeps failing is turned off. The
 * dispatcher (shared/domain/webhooks/dispatch.ts) and the deliverer (shared/domain/webhooks/delivery-attempt.ts) run on these.
 */
import { derivedTimeId, timeOfId } from '../../ids.js';
import { log, saneCorrelationId } from '../../log.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
import { severityRank, INCIDENT_SEVERITIES, type IncidentSeverity } from '../../vocabulary/incidents.js';
import type { Webhook } from '../../db/webhooks/index.js';

/**
 * Waits before each attempt, as Svix schedules them: at once, then 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h and 10 h. Eight attempts over about 27.6 hours.
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

/** Each wait is moved by up to this share either way, so failed deliveries do not return in step. */
export const JITTER = 0.2;

/** A subscription whose deliveries have all failed for this long is turned off, and its owner told. */
export const FAILING_DISABLE_AFTER_MS = 5 * 24 * 3_600_000;

/** A message of the service's event bus, as the dispatcher reads it. */
export interface BusMessage {
  /** The event's id, or the outbox message's: the same on every redelivery of the message. */
  messageId: string;
  tenantId: string;
  type: string;
  /** When the change happened. */
  time: string;
  /** What the change published (its `correlation_id` taken out). */
  detail: Record<string, unknown>;
  /** The correlation id of the request that made the change (shared/log.ts), taken out of the detail. */
  correlationId?: string;
}

/** What the dispatcher reads of an EventBridge event (the body of its queue's messages). */
export interface BusEnvelope {
  source?: unknown;
  'detail-type'?: unknown;
  time?: unknown;
  detail?: unknown;
}

/**
 * The message of a bus event, or null when it is none of ours to deliver (no tenant, no id). A
 * stored event's id is its `event_id`; a change's is its outbox `message_id` (docs/events.md).
 */
export function busMessageOf(event: BusEnvelope): BusMessage | null {
  const detail = event.detail;
  if (typeof detail !== 'object' || detail === null || Array.isArray(detail)) return null;
  const { correlation_id: correlation, ...d } = detail as Record<string, unknown>;
  const correlationId = saneCorrelationId(correlation);
  const messageId = event.source === 'gatehouse.events' ? d.event_id : d.message_id;
  if (typeof d.tenant_id !== 'string' || typeof messageId !== 'string' || typeof event['detail-type'] !== 'string')
    return null;
  if (typeof event.time !== 'string' || Number.isNaN(Date.parse(event.time))) return null;
  // Ids are UUIDv7: their millisecond says when the change was made, finer than the envelope's second.
  const time = UUID_V7.test(messageId)
    ? new Date(timeOfId(messageId)).toISOString()
    : new Date(event.time).toISOString();
  return {
    messageId,
    tenantId: d.tenant_id,
    type: event['detail-type'],
    time,
    detail: d,
    ...(correlationId ? { correlationId } : {}),
  };
}

/**
 * The bus message a queue message carries (an EventBridge event the rule put on the queue), or
 * null, logged with `what` the queue is for, when it is not JSON or names no tenant: no retry makes
 * it one, so the caller drops it.
 */
export function queuedBusMessage(body: string, sqsMessageId: string, what: string): BusMessage | null {
  let message: BusMessage | null;
  try {
    message = busMessageOf(JSON.parse(body) as BusEnvelope);
  } catch (err) {
    log.error(`a ${what} message is not an EventBridge event: dropped`, { sqs_message_id: sqsMessageId, err });
    return null;
  }
  if (!message) log.warn(`a ${what} message without a tenant or an id: dropped`, { sqs_message_id: sqsMessageId });
  return message;
}

const isSeverity = (s: unknown): s is IncidentSeverity => (INCIDENT_SEVERITIES as readonly unknown[]).includes(s);

/** Whether `message` goes to `subscription`: its tenant, on, of a chosen type, within its filters. */
export function subscribes(subscription: Webhook, message: BusMessage): boolean {
  if (subscription.tenant_id !== message.tenantId || !subscription.enabled) return false;
  if (!subscription.event_types.includes('*') && !subscription.event_types.includes(message.type)) return false;
  const { environment_id: environmentId, min_severity: minSeverity } = subscription.filters;
  if (environmentId && message.detail.environment_id !== environmentId) return false;
  if (minSeverity) {
    // Incidents have a severity; an event only when its reporter gave one: without one it does not pass.
    const severity = message.detail.severity;
    if (!isSeverity(severity) || !isSeverity(minSeverity) || severityRank(severity) < severityRank(minSeverity))
      return false;
  }
  return true;
}

/**
 * The delivery's id (`webhook-id`): one per message and subscription, the same on every attempt, on
 * a redelivered message and on a replay, so receivers can deduplicate on it. A UUIDv7 of the
 * message's time, so a subscription's deliveries are in time order by key.
 */
export function deliveryId(message: Pick<BusMessage, 'messageId' | 'time'>, webhookId: string): string {
  return derivedTimeId(Date.parse(message.time), `webhook-delivery\u0000${message.messageId}\u0000${webhookId}`, 0);
}

/** The delivery body, `{type, timestamp, data}`: the resource as its API shows it (no bus bookkeeping). */
export function deliveryBody(message: BusMessage): string {
  const { message_id: _m, ...data } = message.detail;
  return JSON.stringify({ type: message.type, timestamp: message.time, data });
}

/** What a receiver's answer means: 2xx delivered; 410 the receiver is gone for good; anything else, try again. */
export type AnswerMeaning = 'delivered' | 'gone' | 'retry';

export function meaningOf(status: number | null): AnswerMeaning {
  if (status !== null && status >= 200 && status < 300) return 'delivered';
  if (status === 410) return 'gone';
  return 'retry';
}

/**
 * How long to wait before the next attempt after `attemptsMade` attempts failed, with jitter from
 * `random` (0..1); null when the schedule is spent (the delivery is then failed for good).
 */
export function nextRetryDelayMs(attemptsMade: number, random: () => number = Math.random): number | null {
  if (attemptsMade < 1 || attemptsMade >= RETRY_SCHEDULE_MS.length) return null;
  const base = RETRY_SCHEDULE_MS[attemptsMade]!;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** Whether a subscription failing without a success since `failingSinceMs` is to be turned off at `nowMs`. */
export function failingTooLong(failingSinceMs: number | null, nowMs: number): boolean {
  return failingSinceMs !== null && nowMs - failingSinceMs >= FAILING_DISABLE_AFTER_MS;
}
