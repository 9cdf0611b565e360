/**
 * What an operator finds in the local server's log (LOG_FILE) after one walk through the service
 * (docs/observability.md): the contract's metrics as Embedded Metric Format lines, with their
 * names, values and dimensions, and the walk's story followed by its correlation id.
 *
 * The walk, every request of it with one `X-Correlation-Id`: events sent one by one and in a batch
 * (and one sent again with its Idempotency-Key), an incident opened and acknowledged by its link,
 * its webhook delivered to a real receiver by the server's pipeline, and another delivery of the
 * same story exhausted against a failing receiver. A client guessing acknowledgement links past
 * their rate limit is refused beside it.
 *
 * The exhaustion runs as test/integration/webhook-retries.test.ts runs it
 * (test/support/webhook-pipeline.ts): the real dispatcher and deliverer handlers in this process,
 * over local queues on a fake clock (eight attempts spread over two days), writing to the same log.
 *
 * Then the metrics of what the walk does not do, for the same tenant: an SLA breach and its
 * escalation (the SLA worker run in this process with the clock in 2001, where only this file's
 * incident is due, as test/integration/sla-scheduler.test.ts does it), the audit digests' lag (the
 * digest worker run hours later still, two hours a tenant a run, so this tenant's chain stays
 * behind), feed polls against a local feed server, and MCP tool calls over POST /mcp.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { randomUUID } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { metricPointsOf, type MetricPoint } from '../../bin/metric-lines.js';
import { digestsWorker } from '../../functions/workers/audit-digests.js';
import { handler as slaEscalation } from '../../functions/workers/sla-escalation.js';
import { auditEntry, auditPut } from '../../shared/db/audit/index.js';
import { transactWrite } from '../../shared/db/transact.js';
import { HOUR_MS, SETTLE_MS } from '../../shared/domain/audit/digest.js';
import { openIncident } from '../../shared/domain/incidents/incidents.js';
import { RETRY_SCHEDULE_MS } from '../../shared/domain/webhooks/delivery-policy.js';
import { derivedTimeId, newTimeId } from '../../shared/ids.js';
import { checkSharedClients, runAsWorker } from '../../shared/local/iam-check.js';
import { workerContext } from '../../shared/local/lambda-context.js';
import type { LocalQueues } from '../../shared/local/queue.js';
import type { QueueWorkers } from '../../shared/local/queue-workers.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';
import { workerById } from '../../shared/workers.js';
import { baseUrl, call, randomClientIp, registerTenant, type RegisteredTenant } from '../support/api.js';
import { atTime } from '../support/clock.js';
import { feedFixture, startFeedServer, type FeedServer } from '../support/feed-server.js';
import { ackPathOf } from '../support/notifications.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { actorOf } from '../support/seed.js';
import { incidentCreatedOnBus, startWebhookPipeline } from '../support/webhook-pipeline.js';
import { pipelineDeadline } from '../support/pipeline.js';

const logFile = process.env.LOG_FILE!;
const stage = inject('localEnv').GATEHOUSE_STAGE ?? 'local';
/** Where the log stood when this file started: only what it caused (and what ran beside it) is read. */
let from = 0;

const MINUTE = 60_000;
/** A scheduled run's event, as EventBridge's schedule starts a worker. */
const SCHEDULED = { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} };

let nowMs = Date.now();
let queues: LocalQueues;
let workers: QueueWorkers;
let receiver: Receiver;
let feeds: FeedServer;
/** The one tenant of the file. */
let org: RegisteredTenant;
let hookId: string;

/** Two entries of CISA's catalogue: a poll of it reads 2 records, a count no other file's poll reads. */
const KEV_TWO = (() => {
  const kev = JSON.parse(
    feedFixture('cisa-kev/known_exploited_vulnerabilities.2025.08.25.trimmed.json').toString(),
  ) as { vulnerabilities: unknown[] };
  return Buffer.from(JSON.stringify({ ...kev, count: 2, vulnerabilities: kev.vulnerabilities.slice(0, 2) }));
})();

beforeAll(async () => {
  await checkSharedClients();
  expect(logFile, 'the test run writes the service log to LOG_FILE (vitest.config.ts)').toBeTruthy();
  from = statSync(logFile).size;
  ({ queues, workers } = await startWebhookPipeline(() => nowMs));
  receiver = await startReceiver((path) => (path.startsWith('/down') ? { status: 502 } : { status: 200, body: 'ok' }));
  feeds = await startFeedServer({ '/kev-two.json': KEV_TWO });
  org = await registerTenant('Metrics');
  hookId = await subscribe(`/hook-${org.tenantId}`, ['door.forced', 'incident.created', 'incident.acknowledged']);
  // The failing receiver's subscription takes a type the server never sends for this tenant: only
  // this file's own pipeline delivers to it.
  await subscribe(`/down-${org.tenantId}`, ['incident.on_hold']);
});
afterAll(async () => {
  await workers?.stop();
  await receiver?.close();
  await feeds?.close();
});

async function subscribe(path: string, types: string[]): Promise<string> {
  const res = await call('POST', '/api/v1/webhooks', {
    token: org.token,
    body: { url: `${receiver.url}${path}`, event_types: types },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.webhook_id as string;
}

/** The service log's lines written since the file started. */
const lines = (): string[] => readFileSync(logFile).subarray(from).toString('utf8').split('\n');

/** The EMF lines written since the file started, raw and read. */
function written(): { emf: string[]; points: MetricPoint[] } {
  const emf = lines().filter((l) => l.includes('"_aws"'));
  return { emf, points: emf.flatMap(metricPointsOf) };
}

const named = (points: MetricPoint[], name: string, dims: Record<string, string> = {}) =>
  points.filter((p) => p.name === name && Object.entries(dims).every(([k, v]) => p.dimensions[k] === v));
const total = (points: MetricPoint[]) => points.reduce((sum, p) => sum + p.values.reduce((a, b) => a + b, 0), 0);

/** Waits (PIPELINE_WAIT_MS at most) until the log holds what `found` looks for. */
async function logged(found: (points: MetricPoint[]) => boolean, what: string): Promise<MetricPoint[]> {
  const deadline = pipelineDeadline();
  for (;;) {
    const { points } = written();
    if (found(points)) return points;
    if (Date.now() > deadline) throw new Error(`the log has no ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A metric's own dimensions, by the contract; the others have none but `service` and `stage`. */
const OWN: Record<string, string[]> = {
  EventsIngested: ['mode'],
  WebhookAttempts: ['outcome'],
  NotificationsSent: ['channel'],
  FeedPolls: ['feed', 'outcome'],
  FeedRecords: ['feed'],
  McpToolCalls: ['tool', 'outcome'],
};

/** The namespace, service and stage on every point, each metric's own dimensions and no other's, its unit; no tenant in any line. */
function expectContractShape(points: MetricPoint[]): void {
  for (const p of points) {
    expect(p.namespace).toBe('Gatehouse');
    expect(p.dimensions).toMatchObject({ service: 'gatehouse', stage });
    expect(Object.keys(p.dimensions).sort(), p.name).toEqual(['service', 'stage', ...(OWN[p.name] ?? [])].sort());
    expect(p.unit, p.name).toBe(p.name === 'AuditDigestLagSeconds' ? 'Seconds' : 'Count');
  }
  expect(written().emf.filter((l) => l.includes(org.tenantId))).toEqual([]);
}

type Line = Record<string, unknown>;

/** The log lines that carry `id`, as a request's or as one of a batch's records. */
function linesOf(id: string): Line[] {
  return lines()
    .filter((text) => text.includes(id))
    .map((text) => JSON.parse(text) as Line)
    .filter((l) => l.correlation_id === id || (Array.isArray(l.correlation_ids) && l.correlation_ids.includes(id)));
}

/** What each function wrote with `id`: a route's id or a worker's, with the messages of its lines. */
function functionsOf(lines: Line[]): Record<string, string[]> {
  const seen: Record<string, string[]> = {};
  for (const l of lines) (seen[String(l.worker ?? l.route)] ??= []).push(String(l.message));
  return seen;
}

/** Waits (PIPELINE_WAIT_MS at most) until the lines of `id` name every one of `functions`. */
async function storyOf(id: string, functions: string[]): Promise<Line[]> {
  const deadline = pipelineDeadline();
  for (;;) {
    const story = linesOf(id);
    if (functions.every((f) => f in functionsOf(story)) || Date.now() > deadline) return story;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('metrics and correlation in the local log', () => {
  it('a walk writes the contract metrics with their values and dimensions, and its correlation id names every function it passed', async () => {
    const walk = `walk-${randomUUID()}`;
    const headers = { 'x-correlation-id': walk };

    // Events: one, a batch of three, and the one again with its Idempotency-Key (a replay stores nothing).
    const one = {
      token: org.token,
      body: { type: 'door.forced', source: 'sensor' },
      headers: { ...headers, 'idempotency-key': newTimeId() },
    };
    const event = await call('POST', '/api/v1/events', one);
    expect(event.status, event.text).toBe(201);
    // The answer names the correlation id it was given, next to its own request id.
    expect(event.headers.get('x-correlation-id')).toBe(walk);
    expect(event.headers.get('x-request-id')).not.toBe(walk);
    const again = await call('POST', '/api/v1/events', one);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const batch = await call('POST', '/api/v1/events/batch', {
      token: org.token,
      headers,
      body: { events: [1, 2, 3].map((n) => ({ type: 'motion.detected', payload: { n } })) },
    });
    expect(batch.status, batch.text).toBe(201);

    // An incident opened, and acknowledged by the link its notification carried.
    const opened = await call('POST', '/api/v1/incidents', {
      token: org.token,
      headers,
      body: { title: 'Gate forced', severity: 'high' },
    });
    expect(opened.status, opened.text).toBe(201);
    const ack = await call('POST', await ackPathOf(opened.body.incident_id as string), { headers });
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

    // The walk's change to the failing receiver: eight attempts on the fake clock, then exhausted.
    await queues.send('webhook-dispatch', [
      incidentCreatedOnBus(org.tenantId, nowMs, { type: 'incident.on_hold', correlationId: walk }),
    ]);
    await workers.drain();
    for (const step of RETRY_SCHEDULE_MS.slice(1)) {
      nowMs += step;
      await workers.drain();
    }
    expect(receiver.received.filter((r) => r.path.startsWith(`/down-${org.tenantId}`))).toHaveLength(8);
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
    expectContractShape(points);

    // The story by its id: each route, the stream's publisher to the bus, the bus's queue to the
    // dispatcher, the deliverer's attempts. Others read the bus and the stream too (analytics, the
    // lake, workflows, notifications): their lines join the story.
    const routes = { 'events.create': 201, 'events.batch': 201, 'incidents.create': 201, 'incidents.acknowledge': 200 };
    const pipeline = ['publish-events', 'webhook-dispatch', 'webhook-deliver'];
    const story = await storyOf(walk, [...Object.keys(routes), ...pipeline]);
    expect(Object.keys(functionsOf(story))).toEqual(expect.arrayContaining([...Object.keys(routes), ...pipeline]));
    // The request's own lines name its route and request, and the tenant of a caller it knows (a
    // link's bearer is no one's).
    for (const [route, status] of Object.entries(routes))
      expect(
        story.find((l) => l.route === route && l.message === 'request'),
        route,
      ).toMatchObject({
        level: 'INFO',
        service: 'gatehouse',
        request_id: expect.any(String),
        status,
        ...(route === 'incidents.acknowledge' ? {} : { tenant_id: org.tenantId }),
      });
    expect(story.find((l) => l.worker === 'publish-events')).toMatchObject({ message: 'published to the event bus' });
    // The attempts: the server's, delivered; this file's, failed to the last.
    const attempts = story.filter((l) => l.worker === 'webhook-deliver' && l.message === 'webhook delivery attempt');
    expect(attempts.find((l) => l.outcome === 'delivered')).toMatchObject({
      tenant_id: org.tenantId,
      webhook_id: hookId,
    });
    expect(attempts.filter((l) => l.outcome === 'retry')).toHaveLength(7);
    expect(attempts.filter((l) => l.outcome === 'failed')).toHaveLength(1);

    // The receivers get the change as the API shows it: no correlation bookkeeping in it.
    const bodies = receiver.received
      .filter((r) => r.path === `/hook-${org.tenantId}`)
      .map((r) => JSON.parse(r.body) as { data: unknown });
    expect(bodies.length).toBeGreaterThanOrEqual(1);
    for (const b of bodies) expect(b.data).not.toHaveProperty('correlation_id');
  });

  it('an SLA breach and its escalation by the SLA worker, and the audit digests behind, are counted', async () => {
    // In 2001 only this incident is due: everyone else's timers and audit hours are years later.
    const T0 = Date.parse('2001-01-01T00:00:00Z');
    const sweepAt = T0 + 20 * MINUTE;
    // Critical: 15 minutes to acknowledge, so due at T0 + 15 minutes.
    const incident = await atTime(T0, () =>
      openIncident(actorOf(org), systemTenant(org.tenantId), {
        title: 'Gate 4 forced open',
        severity: 'critical',
        status: 'confirmed',
      }),
    );
    const swept = await atTime(sweepAt, () =>
      // As the local runtime runs it: its own role fenced to the platform (docs/architecture.md, 27).
      runAsWorker(workerById('sla-escalation'), () =>
        slaEscalation(SCHEDULED, workerContext(workerById('sla-escalation'), 'us-east-1')),
      ),
    );
    expect(swept).toMatchObject({ due: 1, breached: 1, escalated: 1, failed: 0 });
    // Acknowledged: its next level's timer (in 2001) is no other file's SLA run's business.
    const ack = await call('PATCH', `/api/v1/incidents/${incident.incident_id}/respond`, {
      token: org.token,
      body: { status: 'acknowledged' },
    });
    expect(ack.status, ack.text).toBe(200);

    // An audit entry of T0 (this process's new ids never go back in time, so it is written with
    // an id of that moment): the tenant's audit chain starts at T0's hour.
    const old = auditEntry(actorOf(org), {
      tenantId: org.tenantId,
      action: 'incident.created',
      resourceType: 'incident',
      resourceId: incident.incident_id,
    });
    const oldId = derivedTimeId(T0, org.tenantId, 0);
    await transactWrite([auditPut({ ...old, log_id: oldId, timestamp: new Date(T0).toISOString() })]);

    // The digest worker, two hours a tenant a run, 3 hours and 35 minutes after T0: it digests the
    // hours of T0 and T0 + 1 h and leaves T0 + 2 h, due at its end plus settling (T0 + 3 h 5 min),
    // 30 minutes before the run.
    const hours = 2;
    const digestAt = T0 + (hours + 1) * HOUR_MS + 35 * MINUTE;
    expect(digestAt - (T0 + hours * HOUR_MS + HOUR_MS + SETTLE_MS)).toBe(30 * MINUTE);
    const run = await atTime(digestAt, () =>
      runAsWorker(workerById('audit-digests'), () =>
        digestsWorker(hours)(SCHEDULED, workerContext(workerById('audit-digests'), 'us-east-1')),
      ),
    );
    expect(run).toMatchObject({ digests: hours, failed: 0 });

    // Each run's line is the one stamped with its (fake) time.
    const { points } = written();
    const sweepLine = points.filter((p) => p.at === sweepAt);
    expect(sweepLine.map((p) => [p.name, p.values])).toEqual(
      expect.arrayContaining([
        ['IncidentSlaBreached', [1]],
        ['Escalations', [1]],
      ]),
    );
    const digestLine = points.filter((p) => p.at === digestAt);
    expect(digestLine.map((p) => [p.name, p.unit, p.values])).toEqual([
      ['AuditDigestLagSeconds', 'Seconds', [30 * 60]],
    ]);
    expectContractShape([...sweepLine, ...digestLine]);
  });

  it('feed polls by feed and outcome, and the records a successful one read, are counted', async () => {
    const connector = async (path: string) => {
      const res = await call('POST', '/api/v1/integrations', {
        token: org.token,
        body: { name: `KEV ${path}`, kind: 'feed', config: { feed: 'cisa-kev', url: `${feeds.base}${path}` } },
      });
      expect(res.status, res.text).toBe(201);
      return res.body.integration_id as string;
    };
    const poll = async (id: string) => (await call('POST', `/api/v1/connectors/${id}/poll`, { token: org.token })).body;
    expect(await poll(await connector('/kev-two.json'))).toMatchObject({ outcome: 'ok', records: { read: 2 } });
    expect(await poll(await connector('/busy'))).toMatchObject({ outcome: 'failed' });

    const points = await logged(
      (p) =>
        named(p, 'FeedRecords', { feed: 'cisa-kev' }).some((r) => r.values.includes(2)) &&
        named(p, 'FeedPolls', { feed: 'cisa-kev', outcome: 'failure' }).length > 0,
      'feed poll of the two KEV entries and a failed one',
    );
    const found = [
      ...named(points, 'FeedPolls', { feed: 'cisa-kev' }),
      ...named(points, 'FeedRecords', { feed: 'cisa-kev' }),
    ];
    expect(named(found, 'FeedPolls', { outcome: 'success' }).some((p) => p.values.includes(1))).toBe(true);
    expect(named(found, 'FeedPolls', { outcome: 'failure' }).some((p) => p.values.includes(1))).toBe(true);
    expect(named(found, 'FeedRecords').some((p) => p.values.includes(2))).toBe(true);
    expectContractShape(found);
  });

  it('MCP tool calls by tool and outcome are counted', async () => {
    const client = new Client({ name: 'gatehouse-metrics-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', baseUrl()), {
        requestInit: { headers: { authorization: `Bearer ${org.token}` } },
      }),
    );
    try {
      expect((await client.callTool({ name: 'get_incidents', arguments: { limit: 1 } })).isError).toBeFalsy();
      // No title: a tool result that is an error.
      expect((await client.callTool({ name: 'create_incident', arguments: { severity: 'low' } })).isError).toBe(true);
    } finally {
      await client.close();
    }
    const points = await logged(
      (p) =>
        named(p, 'McpToolCalls', { tool: 'get_incidents', outcome: 'success' }).length > 0 &&
        named(p, 'McpToolCalls', { tool: 'create_incident', outcome: 'error' }).length > 0,
      'MCP tool calls',
    );
    const found = named(points, 'McpToolCalls');
    expect(named(found, 'McpToolCalls', { tool: 'get_incidents', outcome: 'success' })[0]!.values).toEqual([1]);
    expect(named(found, 'McpToolCalls', { tool: 'create_incident', outcome: 'error' })[0]!.values).toEqual([1]);
    expectContractShape(found);
  });
});
