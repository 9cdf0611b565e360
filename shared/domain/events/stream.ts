/**
 * The live event stream, free of Lambda and HTTP: where a stream starts, how it walks each
 * tenant's events in store order without losing or repeating one, and the server-sent-event frames.
 *
 * Order: store order, not id order. An event's id is made before it is stored (by the server, by
 * a client up to 24 h before, or by an earlier attempt of an idempotent request), and writes of
 * concurrent requests land in any order, so no bound on ids says "everything below is stored".
 * Instead each tenant has a store sequence (shared/db/event-sequence.ts): ingest reserves a range
 * of numbers from the tenant's counter just before it writes (one UpdateItem alongside the
 * meter's), and every event carries its number in GSI5. Numbers are dense, so a stream that has
 * sent every number up to N knows exactly what comes next: N + 1.
 *
 * Completeness. A stream keeps, per tenant, a cursor (the last number passed) and every 2 s reads
 * the entries above it (one Query of GSI5), sends the run that continues the cursor without a
 * hole, and stops at the first hole: a number reserved whose event is not visible yet (its write
 * is in flight, or the index lags), or will never be (its request failed). A request that fails
 * before writing gives its numbers up with one small item in the same index, which the stream
 * passes at once. A hole first seen GAP_TIMEOUT_MS (10 s) ago is skipped: ingest never sends a
 * write with numbers reserved more than SEQUENCE_WRITE_WINDOW_MS (5 s) before (it reserves new
 * ones), so the event of a skipped number can only have landed within 5 s plus one write's time
 * plus the index's lag of its reservation, which is before the hole was first seen plus 10 s. So
 * every event stored after a stream opened reaches it exactly once, whatever the concurrency of
 * the writers and their clocks; the only price of a hole is delay (up to 10 s for a failed write).
 *
 * Resuming. Within a tenant the numbers are the position: a reconnect with `Last-Event-ID` looks
 * the event up (one GetItem) and resumes after its number: nothing lost, nothing repeated. An id
 * with no number (an event stored before the sequence existed, or none of this tenant's) resumes
 * at the first event reserved at or after the id's time, on the writers' clocks. Without an id, a
 * tenant's stream starts after the newest event in the index when it opens (one Query), so it
 * carries every event stored from then on and replays no history. At its deadline a stream sends
 * the id of the last event it passed (sent, or left out by the type filter) as its position.
 *
 * All tenants (a SUPER_ADMIN without `tenant_id`): the same cursor per tenant. Each round first
 * asks which tenants stored events in the last ACTIVE_LOOKBACK_MS (GSI4, the minutes in which a
 * tenant stored events: one small Query, nothing when the platform is idle), then reads those and
 * any tenant it is still catching up on. A tenant first seen starts after its newest event
 * reserved before the stream's start, by the writers' clocks (one Query down the index, usually
 * one page); from there on it is exact as above. The round's events go out merged by the time
 * their numbers were reserved, each tenant's in its own order. What it promises: every event of a
 * tenant after that starting point exactly once while open, provided a writer's clock is off by
 * less than the lookback (the minute marks that say a tenant is active are on its clock). A
 * single id cannot hold every tenant's cursor, so a resume is exact for the tenant of the named
 * event (found among the tenants active in the last RESUME_SEARCH_MS) and starts every other
 * tenant RESUME_OVERLAP_MS before that event was reserved: nothing lost if writers' clocks are
 * within that margin, but the events of the margin may come twice.
 *
 * Events stored before the sequence existed have no number and are not streamed (listing shows
 * them).
 */
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { SequenceEntry } from '../../db/event-sequence.js';
import type { StoredEvent } from '../../db/events.js';
import { invalid } from '../../errors.js';
import { timeIdBound, timeOfId } from '../../ids.js';
import type { Logger } from '../../log.js';
import type { TenantId } from '../../vocabulary/tenant.js';

/** Reads of the table this far apart while a stream is idle or caught up (the spec's 2 s). */
export const POLL_INTERVAL_MS = 2_000;
/**
 * A hole in a tenant's sequence seen this long ago is skipped. It must exceed the write window
 * below plus the longest single write plus GSI5's lag (DynamoDB's is normally well under 1 s).
 */
export const GAP_TIMEOUT_MS = 10_000;
/** Ingest sends no write with sequence numbers reserved longer ago than this: it reserves new ones. */
export const SEQUENCE_WRITE_WINDOW_MS = GAP_TIMEOUT_MS / 2;
/** The all-tenants view reads the tenants that stored events this far back (minute marks, writers' clocks). */
export const ACTIVE_LOOKBACK_MS = 120_000;
/** An all-tenants resume starts the other tenants this long before the named event was reserved. */
export const RESUME_OVERLAP_MS = 30_000;
/** An all-tenants resume looks for the named event among the tenants active this far back. */
export const RESUME_SEARCH_MS = 20 * 60_000;
/** Entries one read of one tenant takes at most; a tenant further behind is read again at once. */
export const PAGE_SIZE = 100;
/** Tenants read at the same time in one round. */
export const READ_CONCURRENCY = 8;
/** What a client should wait before reconnecting (the `retry:` field). */
export const RETRY_MS = 1_000;
/** Consecutive failed rounds after which the stream ends (the client reconnects and resumes). */
export const MAX_FAILED_ROUNDS = 5;

// ---------------------------------------------------------------------------------------------
// Frames (the text/event-stream format)

/** One event: `id` = event id, `event` = its type, `data` = the event JSON (one line: JSON.stringify escapes newlines). */
export function eventFrame(event: StoredEvent): string {
  return `id: ${event.event_id}\nevent: ${oneLine(event.type)}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** A comment line: ignored by clients, it keeps proxies and load balancers from closing an idle stream. */
export const KEEP_ALIVE_FRAME = ': keep-alive\n\n';

export const retryFrame = (ms: number): string => `retry: ${Math.round(ms)}\n\n`;

/**
 * An `id:` with no data: a client that follows the specification takes it as its last event id
 * without dispatching anything, so its reconnect resumes at the stream's position even when no
 * event came. Sent just before a stream ends on purpose. (The `eventsource` package ignores it
 * and resumes from the last event it got, which is also exact.)
 */
export const positionFrame = (position: string): string => `id: ${position}\n\n`;

const oneLine = (text: string) => text.replace(/[\r\n]/g, '');

// ---------------------------------------------------------------------------------------------
// Positions

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The `Last-Event-ID` header: absent or empty means none; anything but an event id is a 422 (a
 * client only ever sends back an id this stream gave it).
 */
export function parseLastEventId(header: string | undefined): string | undefined {
  const value = header?.trim().toLowerCase();
  if (!value) return undefined;
  if (!UUID.test(value))
    throw invalid(['header', 'last-event-id'], 'must be the id of an event this stream sent', 'uuid_format');
  return value;
}

// ---------------------------------------------------------------------------------------------
// A tenant's cursor

/** What one page did to a cursor: the entries passed in order, and whether it stopped at a hole. */
export interface Taken {
  passed: SequenceEntry[];
  /** Stopped at a hole not old enough to skip: read again next round. */
  waiting: boolean;
  /** Numbers skipped at holes past GAP_TIMEOUT_MS (their requests failed, or wrote nothing). */
  skipped: number;
}

/** A stream's position in one tenant's sequence: the last number passed, and the holes it saw. */
export class SequenceCursor {
  /** Runs of missing numbers and when each was first seen missing. */
  private holes: { from: number; to: number; since: number }[] = [];

  /** `eventId`: the last event passed, the stream's position in this tenant (none yet: undefined). */
  constructor(
    public seq: number,
    public eventId?: string,
  ) {}

  /**
   * Passes the entries of a page that continue the cursor without a hole; a hole first seen at
   * least `gapTimeoutMs` before `nowMs` is skipped. Entries at or below the cursor are ignored.
   */
  take(entries: readonly SequenceEntry[], nowMs: number, gapTimeoutMs = GAP_TIMEOUT_MS): Taken {
    const sorted = entries.filter((e) => e.last > this.seq).sort((a, b) => a.seq - b.seq);
    let expected = this.seq + 1;
    for (const e of sorted) {
      if (e.seq > expected && this.since(expected) === undefined)
        this.holes.push({ from: expected, to: e.seq - 1, since: nowMs });
      expected = Math.max(expected, e.last + 1);
    }
    const passed: SequenceEntry[] = [];
    let skipped = 0;
    let waiting = false;
    for (const e of sorted) {
      if (e.last <= this.seq) continue;
      if (e.seq > this.seq + 1) {
        if (nowMs - (this.since(this.seq + 1) ?? nowMs) < gapTimeoutMs) {
          waiting = true;
          break;
        }
        skipped += e.seq - this.seq - 1;
      }
      passed.push(e);
      this.seq = e.last;
      if (e.event) this.eventId = e.event.event_id;
    }
    this.holes = this.holes.filter((h) => h.to > this.seq);
    return { passed, waiting, skipped };
  }

  /** When `seq` was first seen missing (the earliest of the holes holding it). */
  private since(seq: number): number | undefined {
    let since: number | undefined;
    for (const h of this.holes)
      if (h.from <= seq && seq <= h.to && (since === undefined || h.since < since)) since = h.since;
    return since;
  }
}

// ---------------------------------------------------------------------------------------------
// Reading

/** Whose events a stream carries. */
export type StreamScope = { kind: 'tenant'; tenantId: TenantId } | { kind: 'all' };

/** The reads behind a stream (shared/domain/events/stream-feed.ts over the table). */
export interface EventFeed {
  /** A tenant's entries above `afterSeq`, lowest first, at most `limit`; `more`: the page was full. */
  after(tenantId: TenantId, afterSeq: number, limit: number): Promise<{ entries: SequenceEntry[]; more: boolean }>;
  /** A tenant's entries below `beforeSeq` (all, without it), highest first, at most `limit`. */
  before(
    tenantId: TenantId,
    beforeSeq: number | undefined,
    limit: number,
  ): Promise<{ entries: SequenceEntry[]; more: boolean }>;
  /** An event's number; null when the tenant has no such event or it has none. */
  sequenceOf(tenantId: TenantId, eventId: string): Promise<{ seq: number; atMs: number } | null>;
  /** Which of the tenants holds the event, with its number. */
  find(
    tenantIds: readonly TenantId[],
    eventId: string,
  ): Promise<{ tenantId: TenantId; seq: number; atMs: number } | null>;
  /** The tenants that stored events from `fromMs` to `toMs` (minute marks); asked only for the `all` scope. */
  tenantsWithEvents(fromMs: number, toMs: number): Promise<TenantId[]>;
}

/**
 * A cursor after the tenant's newest entry reserved before `atMs` (on its writer's clock), read
 * down the index a page at a time; none: before the first.
 */
export async function cursorBefore(
  feed: EventFeed,
  tenantId: TenantId,
  atMs: number,
  pageSize = PAGE_SIZE,
): Promise<SequenceCursor> {
  let below: number | undefined;
  for (;;) {
    const { entries, more } = await feed.before(tenantId, below, pageSize);
    const found = entries.find((e) => e.atMs < atMs);
    if (found) return new SequenceCursor(found.last, found.event?.event_id);
    if (!more || entries.length === 0) return new SequenceCursor(0);
    below = entries.at(-1)!.seq;
  }
}

/** Where a stream starts, fixed before its answer's headers go out. */
export interface StreamStart {
  /** The stream's start on its own clock. */
  openedAt: number;
  /** Cursors known from the start: the tenant's, or (all tenants, resumed) the named event's tenant's. */
  cursors: Map<TenantId, SequenceCursor>;
  /** The all-tenants view: a tenant first seen starts after its newest event reserved before this. */
  startMs: number;
  /** `Last-Event-ID`: the position until a stream passes an event. */
  lastEventId?: string;
}

/**
 * Fixes where a stream starts, before anything is sent: a tenant's stream after `lastEventId`'s
 * number (one GetItem), or after its newest entry without one (one Query), so that every event
 * stored once the client has the answer's headers comes after it. The all-tenants view resumed
 * finds the named event among the tenants active lately (GSI4, then a BatchGetItem per 100).
 */
export async function streamStart(
  scope: StreamScope,
  feed: EventFeed,
  lastEventId: string | undefined,
  nowMs: number,
  lookbackMs = ACTIVE_LOOKBACK_MS,
): Promise<StreamStart> {
  const start: StreamStart = { openedAt: nowMs, cursors: new Map(), startMs: nowMs, lastEventId };
  const idMs = lastEventId ? Math.min(timeOfId(lastEventId), nowMs) : nowMs;
  if (scope.kind === 'tenant') {
    const { tenantId } = scope;
    let cursor: SequenceCursor;
    if (!lastEventId) {
      const top = (await feed.before(tenantId, undefined, 1)).entries[0];
      cursor = new SequenceCursor(top?.last ?? 0, top?.event?.event_id);
    } else {
      const known = await feed.sequenceOf(tenantId, lastEventId);
      cursor = known ? new SequenceCursor(known.seq, lastEventId) : await cursorBefore(feed, tenantId, idMs);
    }
    start.cursors.set(tenantId, cursor);
  } else if (lastEventId) {
    const candidates = await feed.tenantsWithEvents(Math.min(idMs, nowMs - RESUME_SEARCH_MS) - lookbackMs, nowMs);
    const found = await feed.find(candidates, lastEventId);
    if (found) start.cursors.set(found.tenantId, new SequenceCursor(found.seq, lastEventId));
    start.startMs = (found?.atMs ?? idMs) - RESUME_OVERLAP_MS;
  }
  return start;
}

/** Merges each tenant's run into one list by the time their numbers were reserved, keeping each tenant's order. */
function mergeByReservation(runs: SequenceEntry[][]): SequenceEntry[] {
  const heads = runs.map(() => 0);
  const out: SequenceEntry[] = [];
  for (;;) {
    let pick = -1;
    runs.forEach((run, i) => {
      const head = run[heads[i]!];
      if (head && (pick < 0 || head.atMs < runs[pick]![heads[pick]!]!.atMs)) pick = i;
    });
    if (pick < 0) return out;
    out.push(runs[pick]![heads[pick]!++]!);
  }
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

// ---------------------------------------------------------------------------------------------
// The stream

export interface StreamTiming {
  pollIntervalMs: number;
  gapTimeoutMs: number;
  /** Longest silence before a keep-alive comment. */
  keepAliveMs: number;
  activeLookbackMs: number;
  pageSize: number;
  concurrency: number;
  retryMs: number;
}

export const DEFAULT_TIMING: StreamTiming = {
  pollIntervalMs: POLL_INTERVAL_MS,
  gapTimeoutMs: GAP_TIMEOUT_MS,
  keepAliveMs: 15_000,
  activeLookbackMs: ACTIVE_LOOKBACK_MS,
  pageSize: PAGE_SIZE,
  concurrency: READ_CONCURRENCY,
  retryMs: RETRY_MS,
};

export interface EventStreamRun {
  scope: StreamScope;
  /** From `streamStart`. */
  start: StreamStart;
  /** Only events of this type are sent (the others still move the cursors). */
  eventType?: string;
  feed: EventFeed;
  /** Writes a chunk to the client; rejects once the client is gone. */
  send(chunk: string): Promise<void>;
  /** Aborted when the client goes away: the stream stops at once, its timers with it. */
  signal: AbortSignal;
  /** Epoch ms at which the stream ends cleanly (the client reconnects and resumes). */
  deadline: number;
  timing?: Partial<StreamTiming>;
  log?: Pick<Logger, 'warn'>;
  /** Clock and sleep, replaceable in tests. */
  now?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export interface StreamSummary {
  /** `deadline`: ended on time; `client`: the client left; `failing`: the table kept failing. */
  end: 'deadline' | 'client' | 'failing';
  sent: number;
  /** Numbers skipped at holes that never filled. */
  skipped: number;
  /** Where a reconnect resumes: the last event passed (or a time, when none was). */
  position: string;
}

const abortableSleep = (ms: number, signal: AbortSignal) => sleepFor(ms, undefined, { signal });

/**
 * The tenants a stream reads and their cursors. A tenant's stream has one, from its start; the
 * all-tenants view adds the tenants GSI4 names as they appear.
 */
class Cursors {
  readonly byTenant: Map<TenantId, SequenceCursor>;
  /** Tenants to read next round whatever GSI4 says: new, behind, or waiting at a hole. */
  readonly pending: Set<TenantId>;
  /** The all-tenants view: the next question to GSI4 covers minutes from this. */
  private askFrom: number;

  constructor(
    private readonly run: EventStreamRun,
    private readonly t: StreamTiming,
  ) {
    this.byTenant = new Map(run.start.cursors);
    this.pending = new Set(run.start.cursors.keys());
    this.askFrom = Math.min(run.start.openedAt, run.start.startMs) - t.activeLookbackMs;
  }

  /** The tenants due this round, each with a cursor. */
  async due(nowMs: number): Promise<TenantId[]> {
    const { run, t } = this;
    if (run.scope.kind === 'tenant') return [run.scope.tenantId];
    const active = await run.feed.tenantsWithEvents(this.askFrom, nowMs);
    const fresh = active.filter((id) => !this.byTenant.has(id));
    const started = await mapLimit(fresh, t.concurrency, (id) =>
      cursorBefore(run.feed, id, run.start.startMs, t.pageSize),
    );
    fresh.forEach((id, i) => {
      this.byTenant.set(id, started[i]!);
      this.pending.add(id);
    });
    this.askFrom = nowMs - t.activeLookbackMs;
    return [...new Set([...active, ...this.pending])];
  }
}

/**
 * Streams events until the deadline or the client leaves: a `retry:` hint first (which also
 * sends the headers at once), then each round's events, a keep-alive comment whenever nothing
 * was written for `keepAliveMs`, and at the deadline the stream's position.
 */
export async function runEventStream(run: EventStreamRun): Promise<StreamSummary> {
  const t: StreamTiming = { ...DEFAULT_TIMING, ...run.timing };
  const now = run.now ?? Date.now;
  const sleep = run.sleep ?? abortableSleep;
  const cursors = new Cursors(run, t);
  let sent = 0;
  let skipped = 0;
  let lastSent: string | undefined;
  let failedRounds = 0;
  let nextRound = now();
  let lastWrite = now();
  const wanted = (e: StoredEvent) => !run.eventType || e.type === run.eventType;
  const position = () =>
    (run.scope.kind === 'tenant' ? cursors.byTenant.get(run.scope.tenantId)?.eventId : lastSent) ??
    run.start.lastEventId ??
    timeIdBound(run.start.openedAt, 'low');
  const summary = (end: StreamSummary['end']): StreamSummary => ({ end, sent, skipped, position: position() });

  const send = async (chunk: string) => {
    await run.send(chunk);
    lastWrite = now();
  };

  try {
    await send(retryFrame(t.retryMs));
    for (;;) {
      if (run.signal.aborted) return summary('client');
      if (now() >= run.deadline) {
        await send(positionFrame(position()));
        return summary('deadline');
      }
      if (now() >= nextRound) {
        const started = now();
        let out: SequenceEntry[] = [];
        let behind = false;
        try {
          const due = await cursors.due(started);
          const pages = await mapLimit(due, t.concurrency, async (tenantId) => ({
            tenantId,
            ...(await run.feed.after(tenantId, cursors.byTenant.get(tenantId)!.seq, t.pageSize)),
          }));
          // Every read came back: only now do the cursors move.
          const runs = pages.map(({ tenantId, entries, more }) => {
            const taken = cursors.byTenant.get(tenantId)!.take(entries, now(), t.gapTimeoutMs);
            skipped += taken.skipped;
            const again = taken.waiting || more;
            if (again) cursors.pending.add(tenantId);
            else cursors.pending.delete(tenantId);
            if (more && !taken.waiting) behind = true;
            return taken.passed;
          });
          out = run.scope.kind === 'all' ? mergeByReservation(runs) : runs.flat();
          failedRounds = 0;
        } catch (err) {
          if (run.signal.aborted) return summary('client');
          run.log?.warn('event stream: a read failed; trying again next round', {
            err,
            failed_rounds: failedRounds + 1,
          });
          // Ending lets the client reconnect and resume: better than a stream that says nothing.
          if (++failedRounds >= MAX_FAILED_ROUNDS) return summary('failing');
        }
        for (const { event } of out) {
          if (!event || !wanted(event)) continue;
          await send(eventFrame(event));
          lastSent = event.event_id;
          sent++;
        }
        nextRound = behind ? now() : started + t.pollIntervalMs;
      }
      if (now() - lastWrite >= t.keepAliveMs) await send(KEEP_ALIVE_FRAME);
      const wake = Math.min(nextRound, lastWrite + t.keepAliveMs, run.deadline);
      await sleep(Math.max(0, wake - now()), run.signal);
    }
  } catch (err) {
    if (run.signal.aborted) return summary('client');
    throw err;
  }
}
