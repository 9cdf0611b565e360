/**
 * The live event stream end to end: a real SSE client (the `eventsource` package, a bearer token
 * through its custom fetch) against the local server's streaming handler, events ingested through
 * the API, the local DynamoDB in between.
 *
 * The last block runs the same handler on a second local server inside this test worker, with a
 * short keep-alive interval and a short stream lifetime set through the environment (read by
 * shared/config.ts), so the keep-alive comment and the clean end-and-resume show within seconds;
 * the run's main server keeps the production defaults.
 */
import { EventSource } from 'eventsource';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalHttpServer } from '../../shared/local/http-server.js';
import { derivedTimeId } from '../../shared/ids.js';
import { EVENT_TYPES } from '../../shared/schemas/events.js';
import { asAdmin, baseUrl, call, randomClientIp, registerTenant, type RegisteredTenant } from '../support/api.js';

// Read by shared/config.ts when it loads in this worker: only the worker's own server below sees them.
vi.hoisted(() => {
  process.env.EVENT_STREAM_KEEPALIVE_SECONDS = '0.5';
  process.env.EVENT_STREAM_MAX_SECONDS = '3';
});

const STREAM = '/api/v1/events/stream';
/** One poll interval, the lag and some slack: after this long a stream has read everything stored before. */
const SETTLE_MS = 3_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Received {
  id: string;
  type: string;
  event: Record<string, any>;
  at: number;
}

/** An `eventsource` client with a bearer token, recording every event of every type it gets. */
class StreamClient {
  readonly received: Received[] = [];
  /** Connections opened, reconnects included. */
  opens = 0;
  private readonly source: EventSource;

  constructor(token: string, options: { query?: Record<string, string>; lastEventId?: string; base?: string } = {}) {
    const url = new URL(STREAM, options.base ?? baseUrl());
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
    const clientIp = randomClientIp();
    this.source = new EventSource(url, {
      fetch: (input, init) => {
        const headers = new Headers(init.headers);
        headers.set('authorization', `Bearer ${token}`);
        headers.set('x-forwarded-for', clientIp);
        // The package sends Last-Event-ID itself on a reconnect; a first connect resumes from ours.
        if (options.lastEventId && !headers.has('last-event-id')) headers.set('last-event-id', options.lastEventId);
        return fetch(input, { ...init, headers });
      },
    });
    this.source.addEventListener('open', () => this.opens++);
    for (const type of EVENT_TYPES) {
      this.source.addEventListener(type, (e) => {
        this.received.push({ id: e.lastEventId, type: e.type, event: JSON.parse(e.data), at: Date.now() });
      });
    }
  }

  get ids(): string[] {
    return this.received.map((r) => r.id);
  }

  /** Resolves once the stream's headers came (the server checked the request and started). */
  async opened(timeoutMs = 5_000): Promise<void> {
    await until(() => this.opens > 0, timeoutMs, 'the stream to open');
  }

  async receive(id: string, timeoutMs = 5_000): Promise<Received> {
    await until(() => this.ids.includes(id), timeoutMs, `event ${id}`);
    return this.received.find((r) => r.id === id)!;
  }

  close(): void {
    this.source.close();
  }
}

async function until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

const clients: StreamClient[] = [];
function connect(token: string, options?: ConstructorParameters<typeof StreamClient>[1]): StreamClient {
  const client = new StreamClient(token, options);
  clients.push(client);
  return client;
}
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

async function ingest(token: string, body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await call('POST', '/api/v1/events', { token, body: { type: 'motion.detected', ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('events.stream', () => {
  let a: RegisteredTenant;
  let b: RegisteredTenant;
  beforeAll(async () => {
    [a, b] = await Promise.all([registerTenant('StreamA'), registerTenant('StreamB')]);
  });

  it('refuses before streaming, with ordinary JSON answers: 401, 404, 422', async () => {
    const anonymous = await call('GET', STREAM);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toMatch(/^application\/json/);
    expect(anonymous.headers.get('x-request-id')).toBeTruthy();

    // B naming A's tenant is answered as an unknown tenant.
    const other = await call('GET', STREAM, { token: b.token, query: { tenant_id: a.tenantId } });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ detail: 'Tenant not found' });
    expect(other.headers.get('x-request-id')).toBeTruthy();
    const unknown = await call('GET', STREAM, { token: b.token, query: { tenant_id: crypto.randomUUID() } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(other.body);

    const badType = await call('GET', STREAM, { token: b.token, query: { event_type: 'coffee.spilled' } });
    expect(badType.status).toBe(422);
    expect(badType.body.detail[0].loc).toEqual(['query', 'event_type']);

    const badId = await call('GET', STREAM, { token: b.token, headers: { 'last-event-id': 'not-an-id' } });
    expect(badId.status).toBe(422);
    expect(badId.body.detail[0].loc).toEqual(['header', 'last-event-id']);
  });

  it('answers text/event-stream with the request id, and a client connected before an ingest gets the event', async () => {
    const head = await fetch(new URL(STREAM, baseUrl()), {
      headers: { authorization: `Bearer ${a.token}`, 'x-forwarded-for': randomClientIp() },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/event-stream');
    expect(head.headers.get('cache-control')).toBe('no-cache');
    expect(head.headers.get('x-request-id')).toBeTruthy();
    await head.body?.cancel();

    const client = connect(a.token);
    await client.opened();
    for (const type of ['motion.detected', 'intrusion.detected', 'door.forced'] as const) {
      const event = await ingest(a.token, { type, description: `probe ${type}` });
      // A bound for a hung stream, not a speed target (that is bin/bench-request-cost.ts's business).
      const got = await client.receive(event.event_id, 10_000);
      // The frame: id = event id, event name = type, data = the event as the API shows it.
      expect(got.type).toBe(type);
      expect(got.event).toEqual(event);
      await sleep(Math.random() * 2_000); // land at different points of the 2 s poll cycle
    }
  });

  it('resumes after Last-Event-ID with exactly the events missed, and replays no history without it', async () => {
    const first = connect(a.token);
    await first.opened();
    const seen = await ingest(a.token, { description: 'seen' });
    await first.receive(seen.event_id);
    first.close();

    const missed: string[] = [];
    for (let i = 0; i < 5; i++) missed.push((await ingest(a.token, { description: `missed ${i}` })).event_id);

    const resumed = connect(a.token, { lastEventId: seen.event_id });
    const fresh = connect(a.token);
    await Promise.all([resumed.opened(), fresh.opened()]);
    await resumed.receive(missed.at(-1)!);
    const after = await ingest(a.token, { description: 'after the reconnect' });
    await Promise.all([resumed.receive(after.event_id), fresh.receive(after.event_id)]);
    await sleep(SETTLE_MS);
    expect(resumed.ids).toEqual([...missed, after.event_id]);
    expect(fresh.ids).toEqual([after.event_id]);
  });

  it('filters by event_type', async () => {
    const client = connect(a.token, { query: { event_type: 'intrusion.detected' } });
    await client.opened();
    await ingest(a.token, { type: 'motion.detected' });
    const wanted = await ingest(a.token, { type: 'intrusion.detected' });
    const last = await ingest(a.token, { type: 'access.denied', payload: { reason: 'expired badge' } });
    await client.receive(wanted.event_id);
    await sleep(SETTLE_MS);
    expect(client.ids).toEqual([wanted.event_id]);
    expect(client.ids).not.toContain(last.event_id);
  });

  it("never shows a tenant another tenant's events; a SUPER_ADMIN sees every tenant's, or the one named", async () => {
    const admin = await asAdmin();
    const ofA = connect(a.token);
    const ofB = connect(b.token);
    const ofBNamed = connect(b.token, { query: { tenant_id: b.tenantId } });
    const all = connect(admin);
    const onlyA = connect(admin, { query: { tenant_id: a.tenantId } });
    await Promise.all([ofA, ofB, ofBNamed, all, onlyA].map((c) => c.opened()));

    const eventsOfA = [await ingest(a.token, { description: 'A 1' }), await ingest(a.token, { description: 'A 2' })];
    const eventOfB = await ingest(b.token, { description: 'B 1' });
    const idsOfA = eventsOfA.map((e) => e.event_id);

    // A bound for a hung stream, not a speed target: the platform view reads every tenant that
    // stored events lately, and in a full test run the isolation suite makes hundreds at once.
    await Promise.all([
      ...idsOfA.map((id) => ofA.receive(id, 15_000)),
      ofB.receive(eventOfB.event_id, 15_000),
      ofBNamed.receive(eventOfB.event_id, 15_000),
      ...idsOfA.map((id) => onlyA.receive(id, 15_000)),
      all.receive(eventOfB.event_id, 20_000),
    ]);
    await sleep(SETTLE_MS);
    expect(ofA.ids).toEqual(idsOfA);
    expect(ofB.ids).toEqual([eventOfB.event_id]);
    expect(ofBNamed.ids).toEqual([eventOfB.event_id]);
    expect(onlyA.ids).toEqual(idsOfA);
    // The platform view holds both tenants' events, in id order (other tests' events may be there too).
    const mine = all.received.filter((r) => [a.tenantId, b.tenantId].includes(r.event.tenant_id)).map((r) => r.id);
    expect(mine).toEqual([...idsOfA, eventOfB.event_id]);
    for (const r of [...ofA.received, ...onlyA.received]) expect(r.event.tenant_id).toBe(a.tenantId);
    for (const r of [...ofB.received, ...ofBNamed.received]) expect(r.event.tenant_id).toBe(b.tenantId);
  });

  it('carries every event of 2,000 posted in concurrent batches exactly once, and a resume loses and repeats nothing', async () => {
    const c = await registerTenant('StreamBulk');
    const watcher = connect(c.token);
    const first = connect(c.token);
    await Promise.all([watcher.opened(), first.opened()]);

    // 20 batches of 100, four at a time; every fifth carries ids its client made seconds before
    // sending (a client's own ids, or a retry's): stored long after the time their ids say.
    const batches = Array.from({ length: 20 }, (_, b) => {
      const seed = `bulk-${c.tenantId}-${b}`;
      const madeAt = Date.now() - 2_000 - b * 150;
      return Array.from({ length: 100 }, (_, i) => ({
        type: 'motion.detected',
        description: `bulk ${b}.${i}`,
        ...(b % 5 === 2 ? { event_id: derivedTimeId(madeAt, seed, i) } : {}),
      }));
    });
    const stored: string[][] = new Array(batches.length);
    let next = 0;
    let resumed: StreamClient | undefined;
    const post = async () => {
      while (next < batches.length) {
        const b = next++;
        const res = await call('POST', '/api/v1/events/batch', { token: c.token, body: { events: batches[b] } });
        expect(res.status, res.text).toBe(201);
        stored[b] = (res.body as { event_id: string }[]).map((e) => e.event_id);
        // Half-way, the second client goes away and comes back with the last id it got.
        if (b === 9 && !resumed) {
          await until(() => first.ids.length > 0, 10_000, 'the first client to get an event');
          first.close();
          resumed = connect(c.token, { lastEventId: first.ids.at(-1)! });
        }
      }
    };
    await Promise.all(Array.from({ length: 4 }, post));
    const all = stored.flat();
    expect(new Set(all).size).toBe(2_000);

    // A bound for a hung stream, not a speed target.
    await until(() => watcher.ids.length >= all.length, 30_000, 'every event on the open stream').catch(() => {});
    await until(() => first.ids.length + resumed!.ids.length >= all.length, 10_000, 'the resumed stream').catch(
      () => {},
    );
    await sleep(SETTLE_MS);
    const missing = (ids: string[]) => all.filter((id) => !new Set(ids).has(id));
    const doubled = (ids: string[]) => ids.filter((id, i) => ids.indexOf(id) !== i);
    expect({ lost: missing(watcher.ids).length, doubled: doubled(watcher.ids) }).toEqual({ lost: 0, doubled: [] });
    const union = [...first.ids, ...resumed!.ids];
    expect({ lost: missing(union).length, doubled: doubled(union) }).toEqual({ lost: 0, doubled: [] });
    expect(union.length).toBe(all.length);
    // Documented order: a tenant's events in the order they were stored, a batch's in its order.
    for (const ids of stored) {
      const at = ids.map((id) => watcher.ids.indexOf(id));
      expect(at).toEqual([...at].sort((x, y) => x - y));
    }
  }, 150_000);

  describe('lifetime (a server in this worker: keep-alive every 0.5 s, streams end after 3 s)', () => {
    let local: LocalHttpServer;
    const logged: Record<string, any>[] = [];
    const logFile = process.env.LOG_FILE;
    beforeAll(async () => {
      // Imported here, after vi.hoisted set the environment that shared/config.ts reads.
      const { startHttpServer } = await import('../../shared/local/http-server.js');
      const { routeById } = await import('../../shared/routes/index.js');
      local = await startHttpServer({ routes: [routeById('events.stream')], trustForwardedFor: true });
      // The stream's log lines on standard output, as in Lambda, where this test reads them (the
      // test run sends logs to a file otherwise); only the lines it reads are kept from the output.
      delete process.env.LOG_FILE;
      vi.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => {
        for (const line of String(chunk).split('\n')) {
          if (line.includes('"event stream ended"')) logged.push(JSON.parse(line));
        }
        return true;
      });
    });
    afterAll(async () => {
      vi.restoreAllMocks();
      if (logFile !== undefined) process.env.LOG_FILE = logFile;
      await local?.close();
    });

    it('sends a keep-alive comment while idle', async () => {
      const res = await fetch(new URL(STREAM, local.url), {
        headers: { authorization: `Bearer ${b.token}`, 'x-forwarded-for': randomClientIp() },
      });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      let text = '';
      const started = Date.now();
      while (!text.includes(': keep-alive\n\n') && Date.now() - started < 10_000) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      await reader.cancel();
      expect(text).toMatch(/^retry: \d+\n\n/);
      expect(text).toContain(': keep-alive\n\n');
    });

    it('ends cleanly before its limit; the client reconnects with Last-Event-ID and misses nothing', async () => {
      const client = connect(b.token, { base: local.url });
      await client.opened();
      const sent: string[] = [];
      // Over about three stream lifetimes, so at least two end while events keep coming.
      const until = Date.now() + 8_000;
      while (Date.now() < until) {
        sent.push((await ingest(b.token, { description: `across reconnects ${sent.length}` })).event_id);
        await sleep(400);
      }
      await client.receive(sent.at(-1)!, 8_000);
      await sleep(SETTLE_MS);
      expect(client.opens).toBeGreaterThanOrEqual(3);
      expect(client.ids).toEqual(sent);
      expect(logged.filter((l) => l.end === 'deadline').length).toBeGreaterThanOrEqual(2);
    });

    it('stops polling when the client goes away', async () => {
      const controller = new AbortController();
      const res = await fetch(new URL(STREAM, local.url), {
        headers: { authorization: `Bearer ${b.token}`, 'x-forwarded-for': randomClientIp() },
        signal: controller.signal,
      });
      const requestId = res.headers.get('x-request-id');
      await res.body!.getReader().read();
      controller.abort();
      await until(() => logged.some((l) => l.request_id === requestId), 2_000, 'the stream to end');
      expect(logged.find((l) => l.request_id === requestId)).toMatchObject({ end: 'client' });
    });
  });
});
