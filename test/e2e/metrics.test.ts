/**
 * The service's metrics (shared/metrics.ts, docs/observability.md#metrics) as an operator finds
 * them: Embedded Metric Format lines in the local server's log (LOG_FILE), with the contract's
 * names, values and dimensions, after a walk through the service: events sent one by one and in a
 * batch (and one sent again with its Idempotency-Key), an incident opened and acknowledged by its
 * link (and a client guessing links past their rate limit), a webhook delivered to a real receiver,
 * and another exhausted against a failing one.
 *
 * The exhaustion runs as test/integration/webhook-retries.test.ts runs it
 * (test/support/webhook-pipeline.ts): the real dispatcher and deliverer handlers in this process,
 * over local queues on a fake clock (eight attempts spread over two days), writing to the same log.
 */
import { readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { metricPointsOf, type MetricPoint } from '../../bin/metric-lines.js';
import { RETRY_SCHEDULE_MS } from '../../shared/domain/webhooks/delivery-policy.js';
import { newTimeId } from '../../shared/ids.js';
import type { LocalQueues } from '../../shared/local/queue.js';
import type { QueueWorkers } from '../../shared/local/queue-workers.js';
import { call, randomClientIp, registerTenant, type RegisteredTenant } from '../support/api.js';
import { ackPathOf } from '../support/notifications.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { incidentCreatedOnBus, startWebhookPipeline } from '../support/webhook-pipeline.js';

const logFile = process.env.LOG_FILE!;
const stage = inject('localEnv').GATEHOUSE_STAGE ?? 'local';
/** Where the log stood when this file started: only what it caused (and what ran beside it) is read. */
let from = 0;

let nowMs = Date.now();
let queues: LocalQueues;
let workers: QueueWorkers;
let receiver: Receiver;

beforeAll(async () => {
  expect(logFile, 'the test run writes the service log to LOG_FILE (vitest.config.ts)').toBeTruthy();
  from = statSync(logFile).size;
  ({ queues, workers } = await startWebhookPipeline(() => nowMs));
  receiver = await startReceiver((path) => (path.startsWith('/down') ? { status: 502 } : { status: 200, body: 'ok' }));
});
afterAll(async () => {
  await workers?.stop();
  await receiver?.close();
});

/** The EMF lines written since the file started, raw and read. */
function written(): { lines: string[]; points: MetricPoint[] } {
  const text = readFileSync(logFile).subarray(from).toString('utf8');
  const lines = text.split('\n').filter((l) => l.includes('"_aws"'));
  return { lines, points: lines.flatMap(metricPointsOf) };
}

const named = (points: MetricPoint[], name: string, dims: Record<string, string> = {}) =>
  points.filter((p) => p.name === name && Object.entries(dims).every(([k, v]) => p.dimensions[k] === v));
const total = (points: MetricPoint[]) => points.reduce((sum, p) => sum + p.values.reduce((a, b) => a + b, 0), 0);

/** Waits (15 s at most) until the log holds what `found` looks for. */
async function logged(found: (points: MetricPoint[]) => boolean, what: string): Promise<MetricPoint[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { points } = written();
    if (found(points)) return points;
    if (Date.now() > deadline) throw new Error(`the log has no ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function subscribe(org: RegisteredTenant, path: string): Promise<string> {
  const res = await call('POST', '/api/v1/webhooks', {
    token: org.token,
    body: { url: `${receiver.url}${path}`, event_types: ['incident.created'] },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.webhook_id as string;
}

describe('metrics in the local log', () => {
  it('a walk through the service writes the contract metrics, with their values and dimensions and no tenant', async () => {
    const org = await registerTenant('Metrics');
    await subscribe(org, `/hook-${org.tenantId}`);

    // Events: one, a batch of three, and the one again with its Idempotency-Key (a replay stores nothing).
    const key = { 'idempotency-key': newTimeId() };
    const one = { token: org.token, body: { type: 'door.forced', source: 'sensor' }, headers: key };
    expect((await call('POST', '/api/v1/events', one)).status).toBe(201);
    const again = await call('POST', '/api/v1/events', one);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const batch = await call('POST', '/api/v1/events/batch', {
      token: org.token,
      body: { events: [1, 2, 3].map((n) => ({ type: 'motion.detected', payload: { n } })) },
    });
    expect(batch.status, batch.text).toBe(201);

    // An incident opened, and acknowledged by the link its notification carried.
    const opened = await call('POST', '/api/v1/incidents', {
      token: org.token,
      body: { title: 'Gate forced', severity: 'high' },
    });
    expect(opened.status, opened.text).toBe(201);
    const ack = await call('POST', await ackPathOf(opened.body.incident_id as string));
    expect(ack.body.status, ack.text).toBe('acknowledged');

    // One client past the acknowledgement links' limit (30 a minute per address): refused with 429.
    const client = { 'x-forwarded-for': randomClientIp() };
    const guesses = [];
    for (let i = 0; i < 31; i++)
      guesses.push(
        await call('POST', `/api/v1/incidents/${opened.body.incident_id}/acknowledge`, {
          query: { token: `ack_${'0'.repeat(40)}` },
          headers: client,
        }),
      );
    expect(guesses.at(-1)!.status).toBe(429);

    // The incident's webhook is delivered by the server's own pipeline, to the receiver.
    await logged((p) => total(named(p, 'WebhookAttempts', { outcome: 'success' })) >= 1, 'successful webhook attempt');

    // Another subscription whose receiver fails: eight attempts on the fake clock, then exhausted.
    const down = await registerTenant('MetricsDown');
    await subscribe(down, `/down-${down.tenantId}`);
    await queues.send('webhook-dispatch', [incidentCreatedOnBus(down.tenantId, nowMs)]);
    await workers.drain();
    for (const step of RETRY_SCHEDULE_MS.slice(1)) {
      nowMs += step;
      await workers.drain();
    }
    expect(receiver.received.filter((r) => r.path.startsWith(`/down-${down.tenantId}`))).toHaveLength(8);
    const points = await logged((p) => total(named(p, 'WebhookExhausted')) >= 1, 'exhausted webhook delivery');

    // Names and values: at least what this walk caused (other files may run beside it).
    expect(named(points, 'EventsIngested', { mode: 'single' }).some((p) => p.values.includes(1))).toBe(true);
    expect(named(points, 'EventsIngested', { mode: 'batch' }).some((p) => p.values.includes(3))).toBe(true);
    expect(total(named(points, 'IdempotentReplays'))).toBeGreaterThanOrEqual(1);
    expect(total(named(points, 'RateLimitRefusals'))).toBeGreaterThanOrEqual(1);
    expect(total(named(points, 'IncidentsOpened'))).toBeGreaterThanOrEqual(1);
    expect(total(named(points, 'IncidentsAcknowledged'))).toBeGreaterThanOrEqual(1);
    expect(total(named(points, 'NotificationsSent', { channel: 'roles' }))).toBeGreaterThanOrEqual(1);
    expect(total(named(points, 'WebhookAttempts', { outcome: 'failure' }))).toBeGreaterThanOrEqual(8);

    // Dimensions: the namespace, service and stage on every one, each metric's own and no other's.
    const own: Record<string, string[]> = {
      EventsIngested: ['mode'],
      WebhookAttempts: ['outcome'],
      NotificationsSent: ['channel'],
      FeedPolls: ['feed', 'outcome'],
      FeedRecords: ['feed'],
      McpToolCalls: ['tool', 'outcome'],
    };
    for (const p of points) {
      expect(p.namespace).toBe('Gatehouse');
      expect(p.dimensions).toMatchObject({ service: 'gatehouse', stage });
      expect(Object.keys(p.dimensions).sort(), p.name).toEqual(['service', 'stage', ...(own[p.name] ?? [])].sort());
      expect(p.unit).toBe(p.name === 'AuditDigestLagSeconds' ? 'Seconds' : 'Count');
    }
    // No tenant in a metric line.
    const { lines } = written();
    for (const tenantId of [org.tenantId, down.tenantId]) expect(lines.filter((l) => l.includes(tenantId))).toEqual([]);
  });
});
