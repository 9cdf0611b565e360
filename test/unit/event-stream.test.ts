/**
 * The live stream's logic without a server: frames, positions, the lagged read bound, rounds over
 * one and many tenants (paging, order, resuming), and the stream loop on a fake clock.
 */
import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../shared/db/events.js';
import {
  DEFAULT_TIMING,
  KEEP_ALIVE_FRAME,
  LAG_MS,
  MAX_FAILED_ROUNDS,
  StreamCursors,
  eventFrame,
  parseLastEventId,
  positionFrame,
  readBound,
  readRound,
  retryFrame,
  runEventStream,
  startPosition,
  type EventFeed,
  type EventReader,
  type StreamScope,
} from '../../shared/domain/events/stream.js';
import { loadConfig } from '../../shared/config.js';
import { RequestValidationError } from '../../shared/http/errors.js';
import { newTimeId, timeIdBound, timeOfId } from '../../shared/ids.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';

const T0 = Date.UTC(2026, 10, 21, 13, 45, 0);

/** A UUIDv7-shaped id of millisecond `ms`, ordered by `seq` within it. */
function idAt(ms: number, seq = 0): string {
  return timeIdBound(ms, 'low').slice(0, -12) + seq.toString(16).padStart(12, '0');
}

function event(tenantId: string, id: string, type = 'motion.detected'): StoredEvent {
  return {
    event_id: id,
    tenant_id: systemTenant(tenantId),
    environment_id: null,
    sensor_id: null,
    type,
    source: 'api',
    occurred_at: new Date(timeOfId(id)).toISOString(),
    received_at: new Date(timeOfId(id)).toISOString(),
    location: null,
    severity: null,
    description: 'line one\nline two',
    payload: {},
    matched_zone_ids: [],
    matched_signatures: [],
    threat_score: null,
    threat_factors: null,
    processed: false,
    processed_at: null,
    incident_id: null,
  };
}

/** An in-memory event table with eventsAfter's contract: ids in (after, upTo], oldest first, `limit` evaluated. */
class FakeTable {
  readonly events: StoredEvent[] = [];
  reads = 0;
  failNext = 0;

  add(tenantId: string, ms: number, type?: string): StoredEvent {
    const e = event(tenantId, idAt(ms, this.events.length), type);
    this.events.push(e);
    return e;
  }

  reader(type?: string): EventReader {
    return async (tenantId, afterId, upToId, limit) => {
      this.reads++;
      if (this.failNext > 0) {
        this.failNext--;
        throw new Error('throttled');
      }
      if (afterId >= upToId)
        throw new Error(`a read from ${afterId} to ${upToId} is empty by construction; DynamoDB refuses it`);
      const evaluated = this.events
        .filter((e) => e.tenant_id === tenantId && e.event_id > afterId && e.event_id <= upToId)
        .sort((x, y) => (x.event_id < y.event_id ? -1 : 1))
        .slice(0, limit);
      const cursor = evaluated.length === limit ? evaluated.at(-1)!.event_id : upToId;
      return { events: evaluated.filter((e) => !type || e.type === type), cursor };
    };
  }

  /** Asked which tenants stored events, as GSI4 answers: by the minute their ids fall in. */
  activeAsked = 0;

  feed(type?: string): EventFeed {
    return {
      read: this.reader(type),
      tenantsWithEvents: async (fromMs, toMs) => {
        this.activeAsked++;
        const minute = (ms: number) => ms - (ms % 60_000);
        const active = this.events.filter(
          (e) => timeOfId(e.event_id) >= minute(fromMs) && timeOfId(e.event_id) < minute(toMs) + 60_000,
        );
        return [...new Set(active.map((e) => e.tenant_id))];
      },
    };
  }
}

describe('event stream frames', () => {
  it('an event: id, event type, the event JSON on one data line, a blank line', () => {
    const e = event('t1', idAt(T0));
    const frame = eventFrame(e);
    expect(frame).toBe(`id: ${e.event_id}\nevent: motion.detected\ndata: ${JSON.stringify(e)}\n\n`);
    expect(frame.split('\n')).toHaveLength(5); // the newline in the description stays escaped
    expect(JSON.parse(frame.split('\n')[2]!.slice('data: '.length))).toEqual(e);
  });

  it('comments, retry and position', () => {
    expect(KEEP_ALIVE_FRAME).toBe(': keep-alive\n\n');
    expect(retryFrame(1000)).toBe('retry: 1000\n\n');
    expect(positionFrame('x')).toBe('id: x\n\n');
  });
});

describe('event stream positions', () => {
  it('a read reaches only ids made at least LAG_MS ago', () => {
    const bound = readBound(T0);
    expect(LAG_MS).toBe(500);
    expect(idAt(T0 - LAG_MS, 0xffff) <= bound).toBe(true);
    expect(idAt(T0 - LAG_MS + 1) > bound).toBe(true);
    expect(newTimeId() > readBound(Date.now())).toBe(true);
  });

  it('Last-Event-ID: absent or empty is none, an event id is lower-cased, anything else is a 422 on the header', () => {
    expect(parseLastEventId(undefined)).toBeUndefined();
    expect(parseLastEventId('  ')).toBeUndefined();
    const id = newTimeId();
    expect(parseLastEventId(` ${id.toUpperCase()} `)).toBe(id);
    for (const bad of ['42', 'not-an-id', `${id}x`]) {
      const err = (() => {
        try {
          parseLastEventId(bad);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(RequestValidationError);
      expect((err as RequestValidationError).kind).toBe('invalid');
      expect((err as RequestValidationError).issues[0]!.loc).toEqual(['header', 'last-event-id']);
    }
  });

  it('starts at now without Last-Event-ID, strictly after it with one, and holds a future id to now', () => {
    const now = startPosition(undefined, T0);
    expect(now <= idAt(T0)).toBe(true);
    expect(idAt(T0 - 1) < now).toBe(true);
    const past = idAt(T0 - 60_000, 7);
    expect(startPosition(past, T0)).toBe(past);
    const future = idAt(T0 + 60_000);
    expect(startPosition(future, T0)).toBe(timeIdBound(T0, 'high'));
  });

  it('cursors: new tenants start at the origin, cursors never move back, the position is the lowest', () => {
    const cursors = new StreamCursors('m');
    cursors.track(['a', 'b'].map(systemTenant));
    cursors.advance(systemTenant('a'), 'p');
    cursors.advance(systemTenant('a'), 'n');
    expect(cursors.get(systemTenant('a'))).toBe('p');
    expect(cursors.position()).toBe('m');
    cursors.advance(systemTenant('b'), 'q');
    expect(cursors.position()).toBe('p');
    cursors.track(['a', 'c'].map(systemTenant));
    expect(cursors.get(systemTenant('a'))).toBe('p');
    expect(cursors.get(systemTenant('c'))).toBe('m');
  });
});

describe('event stream rounds', () => {
  it('one tenant: events after the cursor up to the bound, oldest first; the cursor moves to the bound', async () => {
    const table = new FakeTable();
    const before = table.add('t1', T0 - 10_000);
    const e1 = table.add('t1', T0 - 3_000);
    const e2 = table.add('t1', T0 - 2_000);
    const tooNew = table.add('t1', T0 - 100); // may have writes with older ids still in flight
    table.add('t2', T0 - 2_500); // another tenant
    const cursors = new StreamCursors(before.event_id);
    cursors.track(['t1'].map(systemTenant));
    const round = await readRound(cursors, readBound(T0), table.reader());
    expect(round.events.map((e) => e.event_id)).toEqual([e1.event_id, e2.event_id]);
    expect(round.behind).toBe(false);
    expect(cursors.get(systemTenant('t1'))).toBe(readBound(T0));
    const next = await readRound(cursors, readBound(T0 + 2_000), table.reader());
    expect(next.events).toEqual([tooNew]);
  });

  it('an event stored late, with an id older than the newest sent, is still sent when it is within the lag', async () => {
    const table = new FakeTable();
    const cursors = new StreamCursors(startPosition(undefined, T0));
    cursors.track(['t1'].map(systemTenant));
    const early = table.add('t1', T0 + 1_000);
    // At T0 + 1_600 a Lambda that made its id at T0 + 1_200 is still writing, while an event made
    // at T0 + 1_300 has landed. Sending that one would move the cursor past the one in flight.
    const landed = table.add('t1', T0 + 1_300);
    const first = await readRound(cursors, readBound(T0 + 1_600), table.reader());
    expect(first.events).toEqual([early]);
    const late = table.add('t1', T0 + 1_200);
    const second = await readRound(cursors, readBound(T0 + 2_400), table.reader());
    expect(second.events).toEqual([late, landed]);
  });

  it('does not read a tenant whose cursor is at or past the bound (a stream that just started)', async () => {
    const table = new FakeTable();
    const cursors = new StreamCursors(startPosition(undefined, T0));
    cursors.track(['t1'].map(systemTenant));
    expect(await readRound(cursors, readBound(T0), table.reader())).toEqual({ events: [], behind: false });
    expect(table.reads).toBe(0);
  });

  it('many tenants, a full page: sends everything up to one id in id order, reads the rest again, loses and repeats nothing', async () => {
    const table = new FakeTable();
    const tenants = ['t1', 't2', 't3'];
    let ms = T0 - 60_000;
    for (let i = 0; i < 60; i++) {
      ms += 1 + Math.floor(Math.random() * 500);
      table.add(tenants[i % 7 === 0 ? 2 : i % 3 === 0 ? 1 : 0]!, ms);
    }
    const cursors = new StreamCursors(idAt(T0 - 61_000));
    cursors.track(tenants.map(systemTenant));
    const upTo = readBound(T0);
    const sent: StoredEvent[] = [];
    let rounds = 0;
    for (;;) {
      const round = await readRound(cursors, upTo, table.reader(), 4, 2);
      rounds++;
      // Every round alone is in id order and ahead of everything sent before.
      const ids = round.events.map((e) => e.event_id);
      expect(ids).toEqual([...ids].sort());
      if (sent.length && ids.length) expect(ids[0]! > sent.at(-1)!.event_id).toBe(true);
      sent.push(...round.events);
      if (!round.behind) break;
      expect(rounds).toBeLessThan(100);
    }
    expect(sent.map((e) => e.event_id)).toEqual(table.events.map((e) => e.event_id).sort());
    expect(rounds).toBeGreaterThan(1);
    // Resuming from any sent id gives exactly what followed it.
    const cut = sent[23]!.event_id;
    const resumed = new StreamCursors(startPosition(cut, T0));
    resumed.track(tenants.map(systemTenant));
    expect(await drain(resumed, upTo, table.reader(), 5)).toEqual(sent.slice(24));
  });

  it('with a type filter, a long run of other types moves the cursor without sending them', async () => {
    const table = new FakeTable();
    for (let i = 0; i < 10; i++) table.add('t1', T0 - 5_000 + i, 'sensor.heartbeat');
    const wanted = table.add('t1', T0 - 4_000, 'intrusion.detected');
    const cursors = new StreamCursors(idAt(T0 - 6_000));
    cursors.track(['t1'].map(systemTenant));
    const reader = table.reader('intrusion.detected');
    const first = await readRound(cursors, readBound(T0), reader, 4);
    expect(first).toEqual({ events: [], behind: true });
    const sent: StoredEvent[] = [];
    for (let round = first; round.behind;) {
      round = await readRound(cursors, readBound(T0), reader, 4);
      sent.push(...round.events);
    }
    expect(sent).toEqual([wanted]);
  });
});

async function drain(
  cursors: StreamCursors,
  upTo: string,
  reader: EventReader,
  pageSize: number,
): Promise<StoredEvent[]> {
  const sent: StoredEvent[] = [];
  for (let rounds = 0; rounds < 1_000; rounds++) {
    const round = await readRound(cursors, upTo, reader, pageSize);
    sent.push(...round.events);
    if (!round.behind) return sent;
  }
  throw new Error('never caught up');
}

/** A fake clock whose sleep advances it; abortable like the real one. */
function fakeTime(start = T0) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => (now += ms),
    sleep: async (ms: number, signal: AbortSignal) => {
      if (signal.aborted) throw signal.reason;
      now += ms;
      await Promise.resolve();
      if (signal.aborted) throw signal.reason;
    },
  };
}

describe('event stream loop', () => {
  const tenant: StreamScope = { kind: 'tenant', tenantId: systemTenant('t1') };

  it('sends retry first, events as they become readable, keep-alives only when idle, and its position at the deadline', async () => {
    const time = fakeTime();
    const table = new FakeTable();
    const out: { at: number; chunk: string }[] = [];
    const e1 = table.add('t1', T0 + 20_000);
    const e2 = table.add('t1', T0 + 20_100);
    const summary = await runEventStream({
      scope: tenant,
      start: startPosition(undefined, T0),
      feed: table.feed(),
      send: async (chunk) => void out.push({ at: time.now(), chunk }),
      signal: new AbortController().signal,
      deadline: T0 + 60_000,
      now: time.now,
      sleep: time.sleep,
    });
    expect(out[0]).toEqual({ at: T0, chunk: retryFrame(DEFAULT_TIMING.retryMs) });
    const eventsAt = out.filter((o) => o.chunk.startsWith('id: ') && o.chunk.includes('data: '));
    expect(eventsAt.map((o) => o.chunk)).toEqual([eventFrame(e1), eventFrame(e2)]);
    // Polled every 2 s: each event goes out at the first poll at least LAG_MS after its id's time.
    expect(eventsAt[0]!.at).toBe(T0 + 22_000);
    const keepAlives = out.filter((o) => o.chunk === KEEP_ALIVE_FRAME).map((o) => o.at);
    expect(keepAlives).toEqual([T0 + 15_000, T0 + 37_000, T0 + 52_000]);
    // The last round ran at T0 + 58 s.
    expect(out.at(-1)).toEqual({ at: T0 + 60_000, chunk: positionFrame(readBound(T0 + 58_000)) });
    expect(summary).toMatchObject({ end: 'deadline', sent: 2 });
  });

  it('never goes 15 s without writing, whatever the poll interval', async () => {
    const time = fakeTime();
    const out: number[] = [];
    await runEventStream({
      scope: tenant,
      start: startPosition(undefined, T0),
      feed: new FakeTable().feed(),
      send: async () => void out.push(time.now()),
      signal: new AbortController().signal,
      deadline: T0 + 120_000,
      timing: { pollIntervalMs: 7_000 },
      now: time.now,
      sleep: time.sleep,
    });
    const gaps = out.slice(1).map((at, i) => at - out[i]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(15_000);
  });

  it('watches every tenant: reads only the tenants that stored events lately, all merged in id order', async () => {
    const time = fakeTime();
    const table = new FakeTable();
    const sent: StoredEvent[] = [];
    const e1 = table.add('t1', T0 + 1_000);
    const e2 = table.add('t2', T0 + 1_500);
    const e3 = table.add('t1', T0 + 2_000);
    const e4 = table.add('t3', T0 + 40_000); // a tenant first active 40 s in
    table.add('t4', T0 - 600_000); // active long before the stream: never read
    const reader = table.reader();
    const readTenants = new Set<string>();
    const feed: EventFeed = {
      ...table.feed(),
      read: (tenantId, ...rest) => {
        readTenants.add(tenantId);
        return reader(tenantId, ...rest);
      },
    };
    const summary = await runEventStream({
      scope: { kind: 'all' },
      start: startPosition(undefined, T0),
      feed,
      send: async (chunk) => {
        if (chunk.includes('data: ')) sent.push(JSON.parse(chunk.split('\ndata: ')[1]!));
      },
      signal: new AbortController().signal,
      deadline: T0 + 50_000,
      now: time.now,
      sleep: time.sleep,
    });
    expect(sent).toEqual([e1, e2, e3, e4]);
    expect([...readTenants].sort()).toEqual(['t1', 't2', 't3']);
    // One question per round, and the position a reconnect resumes at is past every event sent.
    expect(table.activeAsked).toBeGreaterThan(10);
    expect(summary.position >= e4.event_id).toBe(true);
  });

  it('watching every tenant while none stores events reads nothing but the index', async () => {
    const time = fakeTime();
    const table = new FakeTable();
    const summary = await runEventStream({
      scope: { kind: 'all' },
      start: startPosition(undefined, T0),
      feed: table.feed(),
      send: async () => undefined,
      signal: new AbortController().signal,
      deadline: T0 + 20_000,
      now: time.now,
      sleep: time.sleep,
    });
    expect(table.reads).toBe(0);
    expect(table.activeAsked).toBe(10); // every 2 s
    expect(summary.position > startPosition(undefined, T0)).toBe(true);
  });

  it('ends after repeated read failures so the client reconnects, and survives a few', async () => {
    const time = fakeTime();
    const table = new FakeTable();
    table.add('t1', T0 + 1_000);
    table.failNext = MAX_FAILED_ROUNDS - 1;
    const warnings: string[] = [];
    const ok = await runEventStream({
      scope: tenant,
      start: startPosition(undefined, T0),
      feed: table.feed(),
      send: async () => undefined,
      signal: new AbortController().signal,
      deadline: T0 + 30_000,
      log: { warn: (msg) => void warnings.push(msg) },
      now: time.now,
      sleep: time.sleep,
    });
    expect(ok).toMatchObject({ end: 'deadline', sent: 1 });
    expect(warnings).toHaveLength(MAX_FAILED_ROUNDS - 1);

    table.failNext = 1_000;
    const failing = await runEventStream({
      scope: tenant,
      start: startPosition(undefined, T0 + 30_000),
      feed: table.feed(),
      send: async () => undefined,
      signal: new AbortController().signal,
      deadline: T0 + 300_000,
      now: time.now,
      sleep: time.sleep,
    });
    expect(failing.end).toBe('failing');
  });

  it('stops at once when the client goes away, leaving no timer behind (real clock)', async () => {
    const table = new FakeTable();
    const controller = new AbortController();
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const run = runEventStream({
      scope: tenant,
      start: startPosition(idAt(Date.now() - 5_000), Date.now()),
      feed: table.feed(),
      send: async () => undefined,
      signal: controller.signal,
      deadline: Date.now() + 60_000,
      timing: { pollIntervalMs: 50 },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const readsWhileOpen = table.reads;
    expect(readsWhileOpen).toBeGreaterThan(2);
    controller.abort();
    expect(await run).toMatchObject({ end: 'client' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(table.reads).toBe(readsWhileOpen);
    expect(timers()).toBeLessThanOrEqual(before);
  });
});

describe('event stream settings (shared/config.ts)', () => {
  const required = {
    TABLE_NAME: 't',
    BUCKET_NAME: 'b',
    EVENT_BUS_NAME: 'e',
    USER_POOL_ID: 'p',
    USER_POOL_CLIENT_ID: 'c',
  };

  it('defaults: a keep-alive within 15 s, streams end after 14 min, inside the 15 Lambda and API Gateway allow', () => {
    expect(loadConfig(required).eventStream).toEqual({ keepAliveSeconds: 15, maxDurationSeconds: 840 });
  });

  it('takes shorter values (tests use fractions of a second) and refuses what cannot work', () => {
    const short = loadConfig({ ...required, EVENT_STREAM_KEEPALIVE_SECONDS: '0.5', EVENT_STREAM_MAX_SECONDS: '3' });
    expect(short.eventStream).toEqual({ keepAliveSeconds: 0.5, maxDurationSeconds: 3 });
    for (const bad of ['0', '-1', 'soon', '900', '1200']) {
      expect(() => loadConfig({ ...required, EVENT_STREAM_MAX_SECONDS: bad })).toThrow(/EVENT_STREAM_MAX_SECONDS/);
      expect(() => loadConfig({ ...required, EVENT_STREAM_KEEPALIVE_SECONDS: bad })).toThrow(
        /EVENT_STREAM_KEEPALIVE_SECONDS/,
      );
    }
  });
});
