/**
 * The logs of one incident's story, followed by correlation id (docs/observability.md, "Logs"): an
 * event is sent, an incident opened and confirmed, each with the client's `X-Correlation-Id`; the
 * changes go through the outbox, the stream's publisher, the bus, the dispatch queue and the
 * deliverer to a real receiver. The local server's log (LOG_FILE) then shows, for each id, lines of
 * every function the change passed: the route, `publish-events`, `webhook-dispatch` and
 * `webhook-deliver` with its attempt.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerTenant } from '../support/api.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { newEnvironment, newSensor } from '../support/sites.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

type Line = Record<string, unknown>;

/** The log lines of the test run that carry `id`, as a request's or as one of a batch's records. */
function linesOf(id: string): Line[] {
  return readFileSync(process.env.LOG_FILE!, 'utf8')
    .split('\n')
    .filter((text) => text.includes(id))
    .map((text) => JSON.parse(text) as Line)
    .filter((l) => l.correlation_id === id || (Array.isArray(l.correlation_ids) && l.correlation_ids.includes(id)));
}

/** What each function wrote with `id`: a route's id or a worker's, with the messages of its lines. */
const functionsOf = (lines: Line[]) => {
  const seen: Record<string, string[]> = {};
  for (const l of lines) {
    const fn = String(l.worker ?? l.route);
    (seen[fn] ??= []).push(String(l.message));
  }
  return seen;
};

/** Waits (15 s at most) until the lines of `id` name every one of `functions`. */
async function storyOf(id: string, functions: string[]): Promise<Line[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const lines = linesOf(id);
    const seen = functionsOf(lines);
    if (functions.every((f) => f in seen)) return lines;
    if (Date.now() > deadline) return lines;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const PIPELINE = ['publish-events', 'webhook-dispatch', 'webhook-deliver'];

describe('logs', () => {
  it('follow one correlation id from the request through the outbox, the bus and the queues to the webhook attempt', async () => {
    const org = await registerTenant('Logs');
    const env = await newEnvironment(org);
    const sensor = await newSensor(org, env.environment_id);
    const hook = await call('POST', '/api/v1/webhooks', {
      token: org.token,
      body: {
        url: `${receiver.url}/story-${org.tenantId}`,
        event_types: ['motion.detected', 'incident.created', 'incident.confirmed'],
      },
    });
    expect(hook.status).toBe(201);

    const story = {
      event: `walk-event-${randomUUID()}`,
      open: `walk-open-${randomUUID()}`,
      confirm: `walk-confirm-${randomUUID()}`,
    };
    const event = await call('POST', '/api/v1/events', {
      token: org.token,
      headers: { 'x-correlation-id': story.event },
      body: { type: 'motion.detected', sensor_id: sensor.sensor_id },
    });
    expect(event.status).toBe(201);
    // The answer names the correlation id it was given, next to its own request id.
    expect(event.headers.get('x-correlation-id')).toBe(story.event);
    const opened = await call('POST', '/api/v1/incidents', {
      token: org.token,
      headers: { 'x-correlation-id': story.open },
      body: { title: 'Gate forced', severity: 'high', status: 'draft', event_ids: [event.body.event_id] },
    });
    expect(opened.status).toBe(201);
    const confirmed = await call('PATCH', `/api/v1/incidents/${opened.body.incident_id}/respond`, {
      token: org.token,
      headers: { 'x-correlation-id': story.confirm },
      body: { status: 'confirmed' },
    });
    expect(confirmed.status).toBe(200);

    const routes = { event: 'events.create', open: 'incidents.create', confirm: 'incidents.respond' } as const;
    for (const [step, id] of Object.entries(story) as [keyof typeof story, string][]) {
      const lines = await storyOf(id, [routes[step], ...PIPELINE]);
      const seen = functionsOf(lines);
      // Others read the bus and the stream too (analytics, the lake, workflows): their lines join the story.
      expect(Object.keys(seen), `the functions that logged ${step}`).toEqual(
        expect.arrayContaining([routes[step], ...PIPELINE]),
      );
      // The request's own lines name its route, request and tenant; the deliverer's its attempt.
      expect(lines.find((l) => l.route === routes[step] && l.message === 'request')).toMatchObject({
        level: 'INFO',
        service: 'gatehouse',
        tenant_id: org.tenantId,
        request_id: expect.any(String),
        status: step === 'confirm' ? 200 : 201,
      });
      expect(
        lines.find((l) => l.worker === 'webhook-deliver' && l.message === 'webhook delivery attempt'),
      ).toMatchObject({
        tenant_id: org.tenantId,
        webhook_id: hook.body.webhook_id,
        outcome: 'delivered',
      });
    }

    // The receivers get the change as the API shows it: no correlation bookkeeping in it.
    const bodies = receiver.received.filter((r) => r.path === `/story-${org.tenantId}`).map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.type).sort()).toEqual(['incident.confirmed', 'incident.created', 'motion.detected']);
    for (const b of bodies) expect(b.data).not.toHaveProperty('correlation_id');
  }, 60_000);

  it('answer the request id as correlation id when the client sends none, or one that is not a plain token', async () => {
    const org = await registerTenant('LogsOwn');
    const sent: Record<string, string>[] = [
      {},
      { 'x-correlation-id': 'has spaces; and "quotes"' },
      { 'x-correlation-id': 'x'.repeat(200) },
    ];
    for (const headers of sent) {
      const res = await call('GET', '/api/v1/incidents', { token: org.token, headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-correlation-id')).toBe(res.headers.get('x-request-id'));
    }
  });
});
