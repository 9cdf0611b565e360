/** The delivery rules on a fake clock: who gets a message, its id and body, the retry schedule, 410, and auto-disable. */
import { describe, expect, it } from 'vitest';
import type { Webhook } from '../../shared/db/webhooks/subscriptions.js';
import {
  deliveryBody,
  busMessageOf,
  deliveryId,
  failingTooLong,
  meaningOf,
  nextRetryDelayMs,
  RETRY_SCHEDULE_MS,
  subscribes,
  type BusMessage,
} from '../../shared/domain/webhooks/delivery-policy.js';
import { timeOfId } from '../../shared/ids.js';
import type { TenantId } from '../../shared/vocabulary/tenant.js';

const sub = (over: Partial<Webhook> = {}): Webhook => ({
  webhook_id: 'w-1',
  tenant_id: 't-1' as TenantId,
  url: 'https://hooks.example.com/in',
  event_types: ['incident.created'],
  filters: { environment_id: null, min_severity: null },
  enabled: true,
  description: null,
  disabled_reason: null,
  failing_since: null,
  previous_secret_expires_at: null,
  created_at: '2026-11-24T00:00:00.000Z',
  updated_at: '2026-11-24T00:00:00.000Z',
  ...over,
});

const message = (over: Partial<BusMessage> = {}, detail: Record<string, unknown> = {}): BusMessage => ({
  messageId: 'm-1',
  tenantId: 't-1',
  type: 'incident.created',
  time: '2026-11-24T10:00:00.000Z',
  detail: {
    incident_id: 'i-1',
    tenant_id: 't-1',
    severity: 'high',
    environment_id: 'e-1',
    message_id: 'm-1',
    ...detail,
  },
  ...over,
});

describe('subscribes', () => {
  it('takes the tenant, the switch, the types and the filters into account', () => {
    expect(subscribes(sub(), message())).toBe(true);
    expect(subscribes(sub({ tenant_id: 't-2' as TenantId }), message())).toBe(false);
    expect(subscribes(sub({ enabled: false }), message())).toBe(false);
    expect(subscribes(sub(), message({ type: 'incident.resolved' }))).toBe(false);
    expect(subscribes(sub({ event_types: ['*'] }), message({ type: 'motion.detected' }))).toBe(true);
    expect(subscribes(sub({ filters: { environment_id: 'e-2', min_severity: null } }), message())).toBe(false);
    expect(subscribes(sub({ filters: { environment_id: 'e-1', min_severity: 'high' } }), message())).toBe(true);
    expect(subscribes(sub({ filters: { environment_id: null, min_severity: 'critical' } }), message())).toBe(false);
    // An event no reporter rated does not pass a severity filter.
    expect(
      subscribes(
        sub({ event_types: ['*'], filters: { environment_id: null, min_severity: 'low' } }),
        message({ type: 'motion.detected' }, { severity: null }),
      ),
    ).toBe(false);
  });
});

describe('deliveryId and deliveryBody', () => {
  it('give one stable id per message and subscription, and the resource without bus bookkeeping', () => {
    const m = (messageId: string, time = '2026-11-24T10:00:00Z') => ({ messageId, time });
    expect(deliveryId(m('m-1'), 'w-1')).toBe(deliveryId(m('m-1'), 'w-1'));
    expect(deliveryId(m('m-1'), 'w-1')).not.toBe(deliveryId(m('m-1'), 'w-2'));
    expect(deliveryId(m('m-1'), 'w-1')).not.toBe(deliveryId(m('m-2'), 'w-1'));
    // A UUIDv7 of the message's time: a subscription's log is in time order by key.
    expect(deliveryId(m('m-1'), 'w-1')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(timeOfId(deliveryId(m('m-1'), 'w-1'))).toBe(Date.parse('2026-11-24T10:00:00Z'));
    expect(deliveryId(m('m-2', '2026-11-24T10:00:01Z'), 'w-1') > deliveryId(m('m-1'), 'w-1')).toBe(true);
    expect(JSON.parse(deliveryBody(message()))).toEqual({
      type: 'incident.created',
      timestamp: '2026-11-24T10:00:00.000Z',
      data: { incident_id: 'i-1', tenant_id: 't-1', severity: 'high', environment_id: 'e-1' },
    });
  });
});

describe('the retry schedule', () => {
  it('waits as Svix does, each wait within 20 % of its step, and ends after the eighth attempt', () => {
    expect(RETRY_SCHEDULE_MS).toEqual([0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    const low = () => 0;
    const high = () => 1;
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => nextRetryDelayMs(n, mid))).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(nextRetryDelayMs(1, low)).toBe(4_000);
    expect(nextRetryDelayMs(1, high)).toBe(6_000);
    expect(nextRetryDelayMs(8, mid)).toBeNull();
    expect(nextRetryDelayMs(0, mid)).toBeNull();
    // On a fake clock: a receiver that always fails is tried 8 times over about 27.6 hours.
    let clock = 0;
    let attempts = 1;
    for (let wait = nextRetryDelayMs(attempts, mid); wait !== null; wait = nextRetryDelayMs(attempts, mid)) {
      clock += wait;
      attempts += 1;
    }
    expect(attempts).toBe(8);
    expect(clock).toBe(99_305_000);
  });

  it('reads answers: 2xx delivered, 410 gone, anything else (and no answer) retried', () => {
    expect([200, 201, 204, 299].map(meaningOf)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    expect(meaningOf(410)).toBe('gone');
    expect([null, 199, 301, 400, 404, 429, 500, 503].map(meaningOf).every((m) => m === 'retry')).toBe(true);
  });

  it('turns off a subscription failing without a success for five days, not sooner', () => {
    const since = Date.parse('2026-11-01T00:00:00Z');
    expect(failingTooLong(since, since + 5 * 86_400_000 - 1)).toBe(false);
    expect(failingTooLong(since, since + 5 * 86_400_000)).toBe(true);
    expect(failingTooLong(null, since + 30 * 86_400_000)).toBe(false);
  });
});

describe('busMessageOf', () => {
  const envelope = (over: Record<string, unknown> = {}, detail: Record<string, unknown> = {}) => ({
    source: 'gatehouse.incidents',
    'detail-type': 'incident.created',
    time: '2026-11-24T10:00:01Z',
    detail: { incident_id: 'i-1', tenant_id: 't-1', message_id: '019ab5a0-0000-7000-8000-000000000001', ...detail },
    ...over,
  });

  it("names a change by its outbox message id and a stored event by its event id, at the id's millisecond", () => {
    const change = busMessageOf(envelope())!;
    expect(change).toMatchObject({
      messageId: '019ab5a0-0000-7000-8000-000000000001',
      tenantId: 't-1',
      type: 'incident.created',
    });
    expect(change.time).toBe(new Date(0x019ab5a00000).toISOString());
    const event = busMessageOf(
      envelope(
        { source: 'gatehouse.events', 'detail-type': 'motion.detected' },
        { event_id: 'e-1', message_id: undefined },
      ),
    )!;
    // Not a UUIDv7: the envelope's time.
    expect(event).toMatchObject({ messageId: 'e-1', time: '2026-11-24T10:00:01.000Z' });
  });

  it('refuses what it could not deliver to the right tenant or deduplicate', () => {
    expect(busMessageOf(envelope({}, { tenant_id: undefined }))).toBeNull();
    expect(busMessageOf(envelope({}, { message_id: undefined }))).toBeNull();
    expect(busMessageOf(envelope({ detail: 'x' }))).toBeNull();
    expect(busMessageOf(envelope({ time: 'yesterday' }))).toBeNull();
  });
});
