/**
 * The live event stream, free of Lambda and HTTP: where a stream starts, how far each read may
 * go, how it walks one tenant or every tenant in id order, and the server-sent-event frames.
 *
 * Order and completeness. Event ids are UUIDv7, so they sort by the millisecond they were made,
 * and each tenant's events are one partition sorted by id. A stream keeps a cursor per tenant
 * (the highest id it has passed) and every 2 s reads the ids after it, oldest first. An ingest
 * Lambda makes an event's id *before* it stores the event, and writes from several Lambdas land
 * out of order: at time T the table may already hold an event whose id says T - 10 ms but not yet
 * one whose id says T - 40 ms. A stream that moved its cursor to T - 10 ms would leave the later
 * landing behind its cursor, never to be sent. So a read reaches only ids made up to LAG_MS
 * (500 ms) ago: a write lands within that time of making its id, the reads are strongly
 * consistent, and so everything below the read's bound is in the table when the read runs and
 * sending in id order skips nothing. The price is half a second of delay. (An event stored more
 * than LAG_MS after its id was made, such as a client-supplied id made long before it was sent,
 * lands behind the cursors of open streams: they do not carry it, though listing shows it.)
 *
 * Resuming. Events go out in id order, so the id of the last event a client received is a
 * complete position: everything up to it was sent, nothing after it. A reconnect with
 * `Last-Event-ID` starts strictly after it (every tenant's cursor there): nothing lost, nothing
 * repeated. Without one, a stream starts at "now" and replays no history.
 *
 * All tenants (a SUPER_ADMIN without `tenant_id`): the stream keeps one position. Each round
 * first asks which tenants stored events since a little before it (the table's index of the
 * minutes in which a tenant stored events, GSI4: one small Query, nothing when the platform is
 * idle), then reads only those tenants, each from the position, all up to the same bound; only
 * events up to the lowest point every read reached are sent (the rest are read again next
 * round), so the merged stream stays in id order across tenants and one id still resumes it.
 * Ingest marks the minute before it writes the events, but an index is eventually consistent, so
 * this view reads INDEX_LAG_MS further behind than a tenant's stream: an index that lags longer
 * than that could let an event of a tenant not seen active pass unsent.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { StoredEvent } from '../../db/events.js';
import { invalid } from '../../errors.js';
import { timeIdBound, timeOfId } from '../../ids.js';
import type { Logger } from '../../log.js';
import type { TenantId } from '../../vocabulary/tenant.js';

/** Reads of the table this far apart while a stream is idle or caught up. */
export const POLL_INTERVAL_MS = 2_000;
/** Only ids made at least this long ago are read (see above). */
export const LAG_MS = 500;
/** The all-tenants view reads this much further behind: time for the index of active tenants. */
export const INDEX_LAG_MS = 1_500;
/**
 * How far before the position the all-tenants view looks for active tenants: a minute is marked
 * when ingest counts it, after the event's id was made (a client-made id up to a minute before).
 */
export const ACTIVE_LOOKBACK_MS = 120_000;
/** Items one read of one tenant evaluates at most; a tenant further behind is read again at once. */
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

/** The highest id a read at `nowMs` may reach: ids made up to `lagMs` ago. */
export function readBound(nowMs: number, lagMs = LAG_MS): string {
  return timeIdBound(nowMs - lagMs, 'high');
}

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

/**
 * Where a stream starts: strictly after `lastEventId`, or at `nowMs` without one. An id from the
 * future (none of ours) is held to now, so it cannot silence the stream until then.
 */
export function startPosition(lastEventId: string | undefined, nowMs: number): string {
  if (!lastEventId) return timeIdBound(nowMs, 'low');
  const now = timeIdBound(nowMs, 'high');
  return lastEventId < now ? lastEventId : now;
}

// ---------------------------------------------------------------------------------------------
// Reading

/** A tenant's events with ids in (afterId, upToId], oldest first; `cursor`: where the next read starts. */
export type EventReader = (
  tenantId: TenantId,
  afterId: string,
  upToId: string,
  limit: number,
) => Promise<{ events: StoredEvent[]; cursor: string }>;

/** Whose events a stream carries. */
export type StreamScope = { kind: 'tenant'; tenantId: TenantId } | { kind: 'all' };

export interface EventFeed {
  read: EventReader;
  /** The tenants that stored events from `fromMs` to `toMs`; asked only for the `all` scope. */
  tenantsWithEvents(fromMs: number, toMs: number): Promise<TenantId[]>;
}

/** One cursor per tenant; a tenant first seen starts at the stream's starting point. */
export class StreamCursors {
  private readonly cursors = new Map<TenantId, string>();

  constructor(private readonly origin: string) {}

  /** Adds the tenants not tracked yet. */
  track(tenantIds: Iterable<TenantId>): void {
    for (const id of tenantIds) if (!this.cursors.has(id)) this.cursors.set(id, this.origin);
  }

  get(tenantId: TenantId): string | undefined {
    return this.cursors.get(tenantId);
  }

  entries(): [TenantId, string][] {
    return [...this.cursors];
  }

  /** Moves a tenant's cursor forward (never back). */
  advance(tenantId: TenantId, to: string): void {
    const current = this.cursors.get(tenantId);
    if (current === undefined || to > current) this.cursors.set(tenantId, to);
  }

  /** Where a reconnect would resume: the lowest cursor (they are equal but for tenants found late). */
  position(): string {
    let lowest: string | undefined;
    for (const cursor of this.cursors.values()) if (lowest === undefined || cursor < lowest) lowest = cursor;
    return lowest ?? this.origin;
  }
}

export interface Round {
  /** What to send, in id order. */
  events: StoredEvent[];
  /** Some tenant has more below the bound than one read took: read again at once. */
  behind: boolean;
}

/**
 * One round: every tenant's events after its cursor up to `upTo`. When a tenant's read stopped
 * short of `upTo` (a full page), only events up to where it stopped are sent, from every tenant,
 * so that the events sent are all the events up to one id, in id order; the rest are read again.
 */
export async function readRound(
  cursors: StreamCursors,
  upTo: string,
  read: EventReader,
  pageSize = PAGE_SIZE,
  concurrency = READ_CONCURRENCY,
): Promise<Round> {
  const due = cursors.entries().filter(([, cursor]) => cursor < upTo);
  const results = await mapLimit(due, concurrency, async ([tenantId, cursor]) => ({
    tenantId,
    ...(await read(tenantId, cursor, upTo, pageSize)),
  }));
  let reached = upTo;
  for (const r of results) if (r.cursor < reached) reached = r.cursor;
  const events = results
    .flatMap((r) => r.events)
    .filter((e) => e.event_id <= reached)
    .sort((a, b) => (a.event_id < b.event_id ? -1 : a.event_id > b.event_id ? 1 : 0));
  for (const r of results) cursors.advance(r.tenantId, r.cursor < reached ? r.cursor : reached);
  return { events, behind: reached < upTo };
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
  lagMs: number;
  /** Added to `lagMs` for the all-tenants view. */
  indexLagMs: number;
  /** Longest silence before a keep-alive comment. */
  keepAliveMs: number;
  activeLookbackMs: number;
  pageSize: number;
  concurrency: number;
  retryMs: number;
}

export const DEFAULT_TIMING: StreamTiming = {
  pollIntervalMs: POLL_INTERVAL_MS,
  lagMs: LAG_MS,
  indexLagMs: INDEX_LAG_MS,
  keepAliveMs: 15_000,
  activeLookbackMs: ACTIVE_LOOKBACK_MS,
  pageSize: PAGE_SIZE,
  concurrency: READ_CONCURRENCY,
  retryMs: RETRY_MS,
};

export interface EventStreamRun {
  scope: StreamScope;
  /** From `startPosition`. */
  start: string;
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
  /** Where a reconnect resumes. */
  position: string;
}

const abortableSleep = (ms: number, signal: AbortSignal) => sleepFor(ms, undefined, { signal });

/**
 * Streams events until the deadline or the client leaves: a `retry:` hint first (which also
 * sends the headers at once), then each round's events, a keep-alive comment whenever nothing
 * was written for `keepAliveMs`, and at the deadline the stream's position.
 */
export async function runEventStream(run: EventStreamRun): Promise<StreamSummary> {
  const t: StreamTiming = { ...DEFAULT_TIMING, ...run.timing };
  const now = run.now ?? Date.now;
  const sleep = run.sleep ?? abortableSleep;
  // A tenant's stream keeps its tenant's cursor; the all-tenants view one position, and each
  // round cursors of the tenants active since then, all starting there.
  let cursors = new StreamCursors(run.start);
  if (run.scope.kind === 'tenant') cursors.track([run.scope.tenantId]);
  let position = run.start;
  const summary = (end: StreamSummary['end']): StreamSummary => ({
    end,
    sent,
    position: run.scope.kind === 'all' ? position : cursors.position(),
  });
  let sent = 0;
  let failedRounds = 0;
  let nextRound = now();
  let lastWrite = now();

  const send = async (chunk: string) => {
    await run.send(chunk);
    lastWrite = now();
  };

  try {
    await send(retryFrame(t.retryMs));
    for (;;) {
      if (run.signal.aborted) return summary('client');
      if (now() >= run.deadline) {
        await send(positionFrame(cursors.position()));
        return summary('deadline');
      }
      if (now() >= nextRound) {
        const started = now();
        let round: Round | undefined;
        try {
          if (run.scope.kind === 'all') {
            const bound = readBound(now(), t.lagMs + t.indexLagMs);
            cursors = new StreamCursors(position);
            cursors.track(await run.feed.tenantsWithEvents(timeOfId(position) - t.activeLookbackMs, now()));
            round = await readRound(cursors, bound, run.feed.read, t.pageSize, t.concurrency);
            // Every tenant read is at the same point now; the others had nothing up to the bound.
            const reached = cursors.entries().length > 0 ? cursors.position() : bound;
            if (reached > position) position = reached;
          } else {
            round = await readRound(cursors, readBound(now(), t.lagMs), run.feed.read, t.pageSize, t.concurrency);
          }
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
        for (const event of round?.events ?? []) {
          await send(eventFrame(event));
          sent++;
        }
        nextRound = round?.behind ? now() : started + t.pollIntervalMs;
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
