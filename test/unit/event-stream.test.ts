/**
 * The live stream's logic without a server: frames, Last-Event-ID, a tenant's cursor over its
 * store sequence (holes: waited for, filled, skipped after the timeout, given up), where streams
 * start and resume, and the stream loop over a fake sequence on a fake clock, with writers that
 * land out of order and requests that fail after reserving.
 */
import { describe, expect, it } from 'vitest';
import type { SequenceEntry } from '../../shared/db/event-sequence.js';
import type { StoredEvent } from '../../shared/db/events.js';
import {
  DEFAULT_TIMING,
  GAP_TIMEOUT_MS,
  KEEP_ALIVE_FRAME,
  MAX_FAILED_ROUNDS,
  RESUME_OVERLAP_MS,
  SEQUENCE_WRITE_WINDOW_MS,
  SequenceCursor,
  eventFrame,
  parseLastEventId,
  positionFrame,
  retryFrame,
  runEventStream,
  streamStart,
  type EventFeed,
  type StreamScope,
  type StreamSummary,
} from '../../shared/domain/events/stream.js';
import { loadConfig } from '../../shared/config.js';
import { RequestValidationError } from '../../shared/http/errors.js';
import { newTimeId, timeIdBound, timeOfId } from '../../shared/ids.js';
import { systemTenant, type TenantId } from '../../shared/vocabulary/tenant.js';

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

/** A sequence entry of an event (what GSI5 holds). */
const entry = (seq: number, e: StoredEvent | null, atMs = T0, last = seq): SequenceEntry => ({
  seq,
  last,
  atMs,
  event: e,
});

/**
 * Each tenant's store sequence in memory, as ingest and GSI5 make it: a counter, entries that
 * become visible when their write (and the index) catch up, given-up ranges; the minute marks of
 * GSI4 by the reserving writer's clock. Reads see what is visible at the clock's time.
 */
class FakeSequence {
  readonly rows: (SequenceEntry & { tenantId: TenantId; visibleAt: number })[] = [];
  private readonly counters = new Map<TenantId, number>();
  reads = 0;
  activeAsked = 0;
  failNext = 0;

  constructor(readonly clock: () => number) {}

  reserve(tenant: string, count: number): number {
    const t = systemTenant(tenant);
    const first = (this.counters.get(t) ?? 0) + 1;
    this.counters.set(t, first + count - 1);
    return first;
  }

  /** Stores an event with number `seq`, reserved at `atMs` (a writer's clock), visible from `visibleAt`. */
  store(tenant: string, seq: number, e: StoredEvent, atMs: number, visibleAt: number): void {
    this.rows.push({ ...entry(seq, e, atMs), tenantId: systemTenant(tenant), visibleAt });
  }

  giveUp(tenant: string, first: number, last: number, atMs: number, visibleAt: number): void {
    this.rows.push({ ...entry(first, null, atMs, last), tenantId: systemTenant(tenant), visibleAt });
  }

  /** Reserves and stores one event at once (a quiet writer). */
  add(tenant: string, atMs: number, id = idAt(atMs, this.rows.length), type?: string): StoredEvent {
    const e = event(tenant, id, type);
    this.store(tenant, this.reserve(tenant, 1), e, atMs, atMs);
    return e;
  }

  private visible(tenantId: TenantId) {
    return this.rows.filter((r) => r.tenantId === tenantId && r.visibleAt <= this.clock());
  }

  private page(rows: typeof this.rows, limit: number) {
    const entries = rows.slice(0, limit).map(({ seq, last, atMs, event: e }) => ({ seq, last, atMs, event: e }));
    return { entries, more: rows.length > limit };
  }

  feed(): EventFeed {
    const check = () => {
      this.reads++;
      if (this.failNext > 0) {
        this.failNext--;
        throw new Error('throttled');
      }
    };
    return {
      after: async (tenantId, afterSeq, limit) => {
        check();
        return this.page(
          this.visible(tenantId)
            .filter((r) => r.seq > afterSeq)
            .sort((a, b) => a.seq - b.seq),
          limit,
        );
      },
      before: async (tenantId, beforeSeq, limit) => {
        check();
        return this.page(
          this.visible(tenantId)
            .filter((r) => beforeSeq === undefined || r.seq < beforeSeq)
            .sort((a, b) => b.seq - a.seq),
          limit,
        );
      },
      sequenceOf: async (tenantId, eventId) => {
        const r = this.rows.find((x) => x.tenantId === tenantId && x.event?.event_id === eventId);
        return r ? { seq: r.seq, atMs: r.atMs } : null;
      },
      find: async (tenantIds, eventId) => {
        const r = this.rows.find((x) => tenantIds.includes(x.tenantId) && x.event?.event_id === eventId);
        return r ? { tenantId: r.tenantId, seq: r.seq, atMs: r.atMs } : null;
      },
      tenantsWithEvents: async (fromMs, toMs) => {
        this.activeAsked++;
        const minute = (ms: number) => ms - (ms % 60_000);
        const active = this.rows.filter((r) => r.atMs >= minute(fromMs) && r.atMs < minute(toMs) + 60_000);
        return [...new Set(active.map((r) => r.tenantId))];
      },
    };
  }
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

/** Runs a stream on the fake clock until `deadline`; returns the events sent and the summary. */
async function stream(
  seq: FakeSequence,
  time: ReturnType<typeof fakeTime>,
  scope: StreamScope,
  deadline: number,
  options: { lastEventId?: string; eventType?: string; out?: string[] } = {},
): Promise<{ sent: StoredEvent[]; summary: StreamSummary }> {
  const feed = seq.feed();
  const start = await streamStart(scope, feed, options.lastEventId, time.now());
  const sent: StoredEvent[] = [];
  const summary = await runEventStream({
    scope,
    start,
    eventType: options.eventType,
    feed,
    send: async (chunk) => {
      options.out?.push(chunk);
      if (chunk.includes('\ndata: ')) sent.push(JSON.parse(chunk.split('\ndata: ')[1]!));
    },
    signal: new AbortController().signal,
    deadline,
    now: time.now,
    sleep: time.sleep,
  });
  return { sent, summary };
}

const ids = (events: StoredEvent[]) => events.map((e) => e.event_id);

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
});

describe("a cursor over a tenant's store sequence", () => {
  const e = (n: number) => event('t1', idAt(T0 + n, n));

  it('passes the run that continues it, in sequence order whatever the ids, and ignores what it passed', () => {
    const cursor = new SequenceCursor(3);
    // An event stored late with an id made long before (a client's own id) is simply number 6.
    const late = event('t1', idAt(T0 - 3_600_000));
    const taken = cursor.take([entry(5, e(5)), entry(2, e(2)), entry(4, e(4)), entry(6, late)], T0);
    expect(taken.passed.map((x) => x.seq)).toEqual([4, 5, 6]);
    expect(taken).toMatchObject({ waiting: false, skipped: 0 });
    expect(cursor.seq).toBe(6);
    expect(cursor.eventId).toBe(late.event_id);
    expect(cursor.take([entry(6, late)], T0).passed).toEqual([]);
  });

  it('stops at a hole and sends what follows once the missing event lands within the timeout', () => {
    const cursor = new SequenceCursor(0);
    const first = cursor.take([entry(1, e(1)), entry(3, e(3)), entry(4, e(4))], T0);
    expect(first.passed.map((x) => x.seq)).toEqual([1]);
    expect(first.waiting).toBe(true);
    const again = cursor.take([entry(3, e(3)), entry(4, e(4))], T0 + GAP_TIMEOUT_MS - 1);
    expect(again).toEqual({ passed: [], waiting: true, skipped: 0 });
    const filled = cursor.take([entry(2, e(2)), entry(3, e(3)), entry(4, e(4))], T0 + GAP_TIMEOUT_MS - 1);
    expect(filled.passed.map((x) => x.seq)).toEqual([2, 3, 4]);
    expect(filled.waiting).toBe(false);
  });

  it('skips a hole GAP_TIMEOUT_MS after it was first seen, and holes seen together expire together', () => {
    const cursor = new SequenceCursor(0);
    const page = [entry(1, e(1)), entry(3, e(3)), entry(6, e(6)), entry(7, e(7))];
    expect(cursor.take(page, T0).passed.map((x) => x.seq)).toEqual([1]);
    expect(cursor.take(page, T0 + 5_000).waiting).toBe(true);
    const skipped = cursor.take(page, T0 + GAP_TIMEOUT_MS);
    expect(skipped.passed.map((x) => x.seq)).toEqual([3, 6, 7]);
    expect(skipped).toMatchObject({ waiting: false, skipped: 3 });
  });

  it('a hole partly filled keeps the time its rest was first seen', () => {
    const cursor = new SequenceCursor(0);
    cursor.take([entry(1, e(1)), entry(10, e(10))], T0); // 2..9 missing since T0
    const part = cursor.take([entry(2, e(2)), entry(3, e(3)), entry(10, e(10))], T0 + 6_000);
    expect(part.passed.map((x) => x.seq)).toEqual([2, 3]);
    expect(part.waiting).toBe(true);
    const rest = cursor.take([entry(10, e(10))], T0 + GAP_TIMEOUT_MS);
    expect(rest).toMatchObject({ skipped: 6, waiting: false });
    expect(rest.passed.map((x) => x.seq)).toEqual([10]);
  });

  it('a range a failed request gave up is passed at once', () => {
    const cursor = new SequenceCursor(0);
    const taken = cursor.take([entry(1, e(1)), entry(2, null, T0, 101), entry(102, e(102))], T0);
    expect(taken.passed.map((x) => x.seq)).toEqual([1, 2, 102]);
    expect(taken).toMatchObject({ waiting: false, skipped: 0 });
    expect(cursor.eventId).toBe(e(102).event_id);
  });

  it('the write window leaves room for a write and the index within the timeout', () => {
    expect(SEQUENCE_WRITE_WINDOW_MS).toBeLessThanOrEqual(GAP_TIMEOUT_MS / 2);
  });
});

describe('where a stream starts', () => {
  const tenant: StreamScope = { kind: 'tenant', tenantId: systemTenant('t1') };

  it('a tenant: after its newest event without Last-Event-ID, after the named event with one', async () => {
    const time = fakeTime();
    const seq = new FakeSequence(time.now);
    const a = seq.add('t1', T0 - 5_000);
    const b = seq.add('t1', T0 - 4_000);
    const fresh = await streamStart(tenant, seq.feed(), undefined, T0);
    expect(fresh.cursors.get(systemTenant('t1'))).toMatchObject({ seq: 2, eventId: b.event_id });
    const resumed = await streamStart(tenant, seq.feed(), a.event_id, T0);
    expect(resumed.cursors.get(systemTenant('t1'))).toMatchObject({ seq: 1, eventId: a.event_id });
    const none = await streamStart({ kind: 'tenant', tenantId: systemTenant('t2') }, seq.feed(), undefined, T0);
    expect(none.cursors.get(systemTenant('t2'))?.seq).toBe(0);
  });

  it('an id without a number (stored before the sequence, or unknown) resumes at the first event reserved from its time on', async () => {
    const time = fakeTime();
    const seq = new FakeSequence(time.now);
    seq.add('t1', T0 - 60_000);
    const before = seq.add('t1', T0 - 30_000);
    seq.add('t1', T0 - 10_000);
    const start = await streamStart(tenant, seq.feed(), idAt(T0 - 20_000), T0);
    expect(start.cursors.get(systemTenant('t1'))).toMatchObject({ seq: 2, eventId: before.event_id });
    // An id from the future is held to now.
    const future = await streamStart(tenant, seq.feed(), idAt(T0 + 3_600_000), T0);
    expect(future.cursors.get(systemTenant('t1'))?.seq).toBe(3);
  });
});

describe('event stream loop', () => {
  const tenant: StreamScope = { kind: 'tenant', tenantId: systemTenant('t1') };

  it('sends retry first, events in store order, keep-alives only when idle, and the last event passed at the deadline', async () => {
    const time = fakeTime();
    const seq = new FakeSequence(time.now);
    seq.add('t1', T0 - 1_000); // before the stream: not replayed
    const out: string[] = [];
    const e1 = seq.add('t1', T0 + 20_000);
    // Stored after e1 with an id a client made an hour before: sent after it.
    const e2 = seq.add('t1', T0 + 20_100, idAt(T0 - 3_600_000));
    const { sent, summary } = await stream(seq, time, tenant, T0 + 60_000, { out });
    expect(out[0]).toBe(retryFrame(DEFAULT_TIMING.retryMs));
    expect(sent).toEqual([e1, e2]);
    expect(out.filter((c) => c === KEEP_ALIVE_FRAME)).toHaveLength(3);
    expect(out.at(-1)).toBe(positionFrame(e2.event_id));
    expect(summary).toMatchObject({ end: 'deadline', sent: 2, position: e2.event_id });
  });

  it('never goes 15 s without writing, whatever the poll interval', async () => {
    const time = fakeTime();
    const out: number[] = [];
    const feed = new FakeSequence(time.now).feed();
    await runEventStream({
      scope: tenant,
      start: await streamStart(tenant, feed, undefined, T0),
      feed,
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

  it('with a type filter, the others move the cursor and the position without being sent', async () => {
    const time = fakeTime();
    const seq = new FakeSequence(time.now);
    for (let i = 0; i < 150; i++) seq.add('t1', T0 + 1_000 + i, undefined, 'sensor.heartbeat');
    const wanted = seq.add('t1', T0 + 2_000, undefined, 'intrusion.detected');
    const last = seq.add('t1', T0 + 2_001, undefined, 'sensor.heartbeat');
    const { sent, summary } = await stream(seq, time, tenant, T0 + 10_000, { eventType: 'intrusion.detected' });
    expect(sent).toEqual([wanted]);
    expect(summary.position).toBe(last.event_id);
  });

  it('concurrent writers landing out of order, slow ones, failed ones: every stored event once, and a resume from any sent id gives exactly the rest', async () => {
    const time = fakeTime();
    const seq = new FakeSequence(time.now);
    const stored: StoredEvent[] = [];
    let n = 0;
    // 300 requests over 60 s, each reserving 1 to 20 numbers; writes land 0 to 7 s (window plus
    // a slow write and the index) after their reservation, each 25 on its own; one request in 30
    // fails before writing (a third of those without saying so); a few carry ids made minutes before.
    for (let r = 0; r < 300; r++) {
      const atMs = T0 + 1_000 + r * 200;
      const count = 1 + ((r * 7) % 20);
      const first = seq.reserve('t1', count);
      if (r % 30 === 7) {
        if (r % 90 !== 7) seq.giveUp('t1', first, first + count - 1, atMs, atMs + 50);
        continue;
      }
      for (let i = 0; i < count; i++) {
        const id = r % 10 === 3 ? idAt(atMs - 180_000, n++) : idAt(atMs, n++);
        const e = event('t1', id);
        const landsAt = atMs + ((r * 1_237 + Math.floor(i / 25) * 911) % 7_000);
        seq.store('t1', first + i, e, atMs, landsAt);
        stored.push(e);
      }
    }
    const { sent, summary } = await stream(seq, time, tenant, T0 + 180_000);
    expect(new Set(ids(sent)).size).toBe(sent.length);
    expect(ids(sent).sort()).toEqual(ids(stored).sort());
    expect(summary.skipped).toBeGreaterThan(0); // the failed requests that did not say so

    // In store order: the order of their numbers.
    const numberOf = new Map(seq.rows.filter((r) => r.event).map((r) => [r.event!.event_id, r.seq]));
    const numbers = sent.map((e) => numberOf.get(e.event_id)!);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));

    for (const cut of [0, 57, 1_234, sent.length - 2]) {
      const again = fakeTime(T0 + 190_000);
      const resumed = await stream(seq, again, tenant, T0 + 250_000, {
        lastEventId: sent[cut]!.event_id,
      });
      expect(ids(resumed.sent)).toEqual(ids(sent.slice(cut + 1)));
    }
  });

  it("watches every tenant: reads only active ones, a tenant first seen starts at the stream's start, merged by reservation time", async () => {
    const time = fakeTime();
    const seq = new FakeSequence(time.now);
    seq.add('t1', T0 - 1_000); // before the stream
    const e1 = seq.add('t1', T0 + 1_000);
    const e2 = seq.add('t2', T0 + 1_500);
    const e3 = seq.add('t1', T0 + 2_000);
    const e4 = seq.add('t3', T0 + 40_000); // a tenant first active 40 s in
    seq.add('t4', T0 - 600_000); // active long before the stream: never read
    const feed = seq.feed();
    const readTenants = new Set<string>();
    const spied: EventFeed = {
      ...feed,
      after: (tenantId, ...rest) => {
        readTenants.add(tenantId);
        return feed.after(tenantId, ...rest);
      },
    };
    const all: StreamScope = { kind: 'all' };
    const sent: StoredEvent[] = [];
    const summary = await runEventStream({
      scope: all,
      start: await streamStart(all, spied, undefined, T0),
      feed: spied,
      send: async (chunk) => {
        if (chunk.includes('\ndata: ')) sent.push(JSON.parse(chunk.split('\ndata: ')[1]!));
      },
      signal: new AbortController().signal,
      deadline: T0 + 50_000,
      now: time.now,
      sleep: time.sleep,
    });
    expect(sent).toEqual([e1, e2, e3, e4]);
    expect([...readTenants].sort()).toEqual(['t1', 't2', 't3']);
    expect(seq.activeAsked).toBeGreaterThan(10);
    expect(summary.position).toBe(e4.event_id);
  });

  it('watching every tenant while none stores events reads nothing but the index', async () => {
    const time = fakeTime();
    const seq = new FakeSequence(time.now);
    await stream(seq, time, { kind: 'all' }, T0 + 20_000);
    expect(seq.reads).toBe(0);
    expect(seq.activeAsked).toBe(10); // every 2 s
  });

  it("every tenant, resumed: exact for the named event's tenant, the others from RESUME_OVERLAP_MS before it, nothing lost", async () => {
    const time = fakeTime();
    const seq = new FakeSequence(time.now);
    const a = [seq.add('a', T0 + 1_000), seq.add('a', T0 + 2_000), seq.add('a', T0 + 3_000)];
    const b = [seq.add('b', T0 + 2_000 - RESUME_OVERLAP_MS - 1), seq.add('b', T0 + 2_500), seq.add('b', T0 + 2_600)];
    time.advance(10_000);
    const { sent } = await stream(seq, time, { kind: 'all' }, T0 + 20_000, { lastEventId: a[1]!.event_id });
    expect(ids(sent)).toEqual(ids([b[1]!, b[2]!, a[2]!]));
  });

  it('ends after repeated read failures so the client reconnects, and survives a few', async () => {
    const time = fakeTime();
    const seq = new FakeSequence(time.now);
    const feed = seq.feed();
    const start = await streamStart(tenant, feed, undefined, T0);
    seq.add('t1', T0 + 1_000);
    seq.failNext = MAX_FAILED_ROUNDS - 1;
    const warnings: string[] = [];
    const base = { scope: tenant, start, feed, send: async () => undefined, now: time.now, sleep: time.sleep };
    const ok = await runEventStream({
      ...base,
      signal: new AbortController().signal,
      deadline: T0 + 30_000,
      log: { warn: (msg) => void warnings.push(msg) },
    });
    expect(ok).toMatchObject({ end: 'deadline', sent: 1 });
    expect(warnings).toHaveLength(MAX_FAILED_ROUNDS - 1);

    seq.failNext = 1_000;
    const failing = await runEventStream({ ...base, signal: new AbortController().signal, deadline: T0 + 300_000 });
    expect(failing.end).toBe('failing');
  });

  it('stops at once when the client goes away, leaving no timer behind (real clock)', async () => {
    const seq = new FakeSequence(Date.now);
    const feed = seq.feed();
    const controller = new AbortController();
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const run = runEventStream({
      scope: tenant,
      start: await streamStart(tenant, feed, undefined, Date.now()),
      feed,
      send: async () => undefined,
      signal: controller.signal,
      deadline: Date.now() + 60_000,
      timing: { pollIntervalMs: 50 },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const readsWhileOpen = seq.reads;
    expect(readsWhileOpen).toBeGreaterThan(2);
    controller.abort();
    expect(await run).toMatchObject({ end: 'client' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seq.reads).toBe(readsWhileOpen);
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
