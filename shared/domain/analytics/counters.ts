/**
 * Analytics, the pure part (no storage, no Lambda types; docs/analytics.md):
 *
 * - windows: what `from_date` and `to_date` become (whole UTC hours), checked;
 * - buckets: UTC hours, UTC days, ISO weeks, each cut to the window;
 * - what one event and one incident add to the counters, and an incident's change as a delta;
 * - the figures read back from counter items: a series, the summary, exact percentiles.
 *
 * Counters have hour resolution: an event counter item holds one UTC day of a scope (`c#<type>#<HH>`
 * events, `s#<type>#<HH>` their scores in thousandths), an incident counter item one UTC hour of
 * creation (`n`, `st#<status>`, `sv#<severity>`, `sla#<outcome>`, `ack#<seconds>`, `res#<seconds>`).
 */
import { invalid } from '../../errors.js';
import {
  DEFAULT_WINDOW_DAYS,
  MAX_WINDOW_DAYS,
  SLA_OUTCOMES,
  type Aggregation,
  type SlaOutcome,
} from '../../schemas/analytics.js';
import { EVENT_TYPES } from '../../vocabulary/event-types.js';
import {
  INCIDENT_SEVERITIES,
  INCIDENT_STATUSES,
  type IncidentSeverity,
  type IncidentStatus,
} from '../../vocabulary/incidents.js';
import { timeFigures, transitionsOf } from '../incidents/index.js';
import type { HistoryEntry } from '../../db/incidents.js';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

// ---------------------------------------------------------------------------------------------
// Windows and buckets

/** A window of whole UTC hours: `fromMs` included, `toMs` excluded. */
export interface Window {
  fromMs: number;
  toMs: number;
}

const floorTo = (ms: number, unit: number) => Math.floor(ms / unit) * unit;

/**
 * The window a query asks for, in whole UTC hours: `from_date` (default 30 days before `to_date`)
 * rounded down to its hour, `to_date` (default now) rounded up to a whole hour, at least one hour.
 * 422 when `to_date` is before `from_date` or they are more than 400 days apart.
 */
export function windowOf(q: { from_date?: string; to_date?: string }, nowMs: number): Window {
  const to = q.to_date !== undefined ? Date.parse(q.to_date) : nowMs;
  const from = q.from_date !== undefined ? Date.parse(q.from_date) : to - DEFAULT_WINDOW_DAYS * DAY_MS;
  if (from > to) {
    throw q.to_date !== undefined
      ? invalid(['query', 'to_date'], 'must not be before from_date', 'value_error')
      : invalid(['query', 'from_date'], 'must not be after now (the default to_date)', 'value_error');
  }
  if (to - from > MAX_WINDOW_DAYS * DAY_MS) {
    throw invalid(['query', 'from_date'], `must be at most ${MAX_WINDOW_DAYS} days before to_date`, 'value_error');
  }
  const fromMs = floorTo(from, HOUR_MS);
  const toMs = Math.max(Math.ceil(to / HOUR_MS) * HOUR_MS, fromMs + HOUR_MS);
  return { fromMs, toMs };
}

/** The start of the bucket holding `ms`: its UTC hour, its UTC day, or its ISO week (Monday 00:00 UTC). */
export function bucketStart(aggregation: Aggregation, ms: number): number {
  if (aggregation === 'hour') return floorTo(ms, HOUR_MS);
  const day = floorTo(ms, DAY_MS);
  if (aggregation === 'day') return day;
  // 1970-01-01 was a Thursday: days since the epoch, shifted so Monday is 0.
  const weekday = (Math.floor(day / DAY_MS) + 3) % 7;
  return day - ((weekday + 7) % 7) * DAY_MS;
}

const nextBucket = (aggregation: Aggregation, start: number) =>
  start + (aggregation === 'hour' ? HOUR_MS : aggregation === 'day' ? DAY_MS : 7 * DAY_MS);

/** Every bucket of the window, in order, each cut to the window: `[start, end)` in epoch ms. */
export function bucketsOf(window: Window, aggregation: Aggregation): [start: number, end: number][] {
  const out: [number, number][] = [];
  for (
    let start = bucketStart(aggregation, window.fromMs);
    start < window.toMs;
    start = nextBucket(aggregation, start)
  ) {
    out.push([Math.max(start, window.fromMs), Math.min(nextBucket(aggregation, start), window.toMs)]);
  }
  return out;
}

/** `YYYY-MM-DD` of the UTC day holding `ms`. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
/** `YYYY-MM-DDTHH` of the UTC hour holding `ms`. */
export const hourOf = (ms: number): string => new Date(ms).toISOString().slice(0, 13);

/** The days (`YYYY-MM-DD`) and hours (`YYYY-MM-DDTHH`) that hold the window's first and last hour. */
export function windowKeys(window: Window): { fromDay: string; toDay: string; fromHour: string; toHour: string } {
  const last = window.toMs - HOUR_MS;
  return { fromDay: dayOf(window.fromMs), toDay: dayOf(last), fromHour: hourOf(window.fromMs), toHour: hourOf(last) };
}

const iso = (ms: number) => new Date(ms).toISOString();
const startOfDay = (day: string) => Date.parse(`${day}T00:00:00.000Z`);
const startOfHour = (hour: string) => Date.parse(`${hour}:00:00.000Z`);

// ---------------------------------------------------------------------------------------------
// Events

/** Where an event is counted: the tenant as a whole, its environment, each zone it matched. */
export type EventScope = { kind: 'all' } | { kind: 'environment'; id: string } | { kind: 'zone'; id: string };

/** The scope's part of a counter key: `all`, `env#<id>`, `zone#<id>`. */
export const scopeKey = (scope: EventScope): string =>
  scope.kind === 'all' ? 'all' : `${scope.kind === 'zone' ? 'zone' : 'env'}#${scope.id}`;

const countName = (type: string, hh: string) => `c#${type}#${hh}`;
const scoreName = (type: string, hh: string) => `s#${type}#${hh}`;

/** What the counters need of a stored event. */
export interface CountableEvent {
  type: string;
  /** When it happened; its UTC hour is where it counts. */
  occurredAt: string;
  environmentId: string | null;
  zoneIds: readonly string[];
  /** 0..1 (already rounded to 0.001 at ingest); null counts as 0. */
  threatScore: number | null;
}

/** What one event adds: to the counter item of each scope, on the day it occurred. */
export function eventAdds(e: CountableEvent): { day: string; scopes: string[]; add: Record<string, number> } {
  const at = Date.parse(e.occurredAt);
  const hh = new Date(at).toISOString().slice(11, 13);
  const milli = Math.round((e.threatScore ?? 0) * 1000);
  const scopes: EventScope[] = [{ kind: 'all' }];
  if (e.environmentId) scopes.push({ kind: 'environment', id: e.environmentId });
  for (const id of new Set(e.zoneIds)) scopes.push({ kind: 'zone', id });
  return {
    day: dayOf(at),
    scopes: scopes.map(scopeKey),
    add: { [countName(e.type, hh)]: 1, ...(milli !== 0 ? { [scoreName(e.type, hh)]: milli } : {}) },
  };
}

/** A counter item as read: its day or hour, and its numeric attributes. */
export interface CounterItem {
  /** `YYYY-MM-DD` (event counters) or `YYYY-MM-DDTHH` (incident counters). */
  period: string;
  counts: Readonly<Record<string, number>>;
}

interface HourFigures {
  /** Epoch ms of the hour's start. */
  at: number;
  type: string;
  count: number;
  /** Sum of the scores, in thousandths. */
  milli: number;
}

/** The figures of each (hour, type) in event counter items, within the window. */
function eventHours(items: readonly CounterItem[], window: Window): HourFigures[] {
  const byKey = new Map<string, HourFigures>();
  for (const item of items) {
    const day = startOfDay(item.period);
    for (const [name, value] of Object.entries(item.counts)) {
      const [kind, type, hh] = name.split('#');
      if ((kind !== 'c' && kind !== 's') || !type || !hh) continue;
      const at = day + Number(hh) * HOUR_MS;
      if (at < window.fromMs || at >= window.toMs) continue;
      const key = `${at}#${type}`;
      const figures = byKey.get(key) ?? { at, type, count: 0, milli: 0 };
      if (kind === 'c') figures.count += value;
      else figures.milli += value;
      byKey.set(key, figures);
    }
  }
  return [...byKey.values()];
}

const mean = (milli: number, count: number) => (count > 0 ? Math.round(milli / count) / 1000 : null);

export interface ThreatBucket {
  start: string;
  end: string;
  count: number;
  avg_threat_score: number | null;
}

/** The series of a window from the event counter items of one scope; `type` picks one event type. */
export function threatSeries(
  items: readonly CounterItem[],
  window: Window,
  aggregation: Aggregation,
  type?: string,
): { buckets: ThreatBucket[]; total: number; avg_threat_score: number | null } {
  const buckets = bucketsOf(window, aggregation);
  const index = new Map(buckets.map(([start], i) => [bucketStart(aggregation, start), i]));
  const sums = buckets.map(() => ({ count: 0, milli: 0 }));
  for (const h of eventHours(items, window)) {
    if (type !== undefined && h.type !== type) continue;
    const sum = sums[index.get(bucketStart(aggregation, h.at))!]!;
    sum.count += h.count;
    sum.milli += h.milli;
  }
  const total = sums.reduce((n, s) => n + s.count, 0);
  const milli = sums.reduce((n, s) => n + s.milli, 0);
  return {
    buckets: buckets.map(([start, end], i) => ({
      start: iso(start),
      end: iso(end),
      count: sums[i]!.count,
      avg_threat_score: mean(sums[i]!.milli, sums[i]!.count),
    })),
    total,
    avg_threat_score: mean(milli, total),
  };
}

/** Events of the window by type (every type listed), from the `all` scope's counter items. */
export function threatsByType(items: readonly CounterItem[], window: Window): Record<string, number> {
  const byType: Record<string, number> = Object.fromEntries(EVENT_TYPES.map((t) => [t, 0]));
  for (const h of eventHours(items, window)) byType[h.type] = (byType[h.type] ?? 0) + h.count;
  return byType;
}

// ---------------------------------------------------------------------------------------------
// Incidents

/** What an incident adds to the counters, as a function of its current state. */
export interface IncidentContribution {
  /** `YYYY-MM-DDTHH`: the UTC hour it was created in; its counter item. */
  hour: string;
  status: IncidentStatus;
  severity: IncidentSeverity;
  sla: SlaOutcome | null;
  /** Seconds to acknowledge / to resolve (IncidentResponse's `time_to_*_seconds`); null until then. */
  ack: number | null;
  res: number | null;
}

/** What the counters need of an incident. */
export interface CountableIncident {
  created_at: string;
  status: IncidentStatus;
  severity: IncidentSeverity;
  history: readonly HistoryEntry[];
  sla_due_at?: string | null;
  sla_breached_at?: string | null;
}

/**
 * Its SLA as the service's clock records it (shared/domain/incidents/escalation.ts): none before
 * confirmation; `breached` once `sla_breached_at` is set (the scheduler saw it unacknowledged at
 * its due time, or it left `confirmed` after it); `pending` while still `confirmed`; else `met`.
 */
export function slaOutcome(i: Pick<CountableIncident, 'status' | 'sla_due_at' | 'sla_breached_at'>): SlaOutcome | null {
  if (!i.sla_due_at) return null;
  if (i.sla_breached_at) return 'breached';
  return i.status === 'confirmed' ? 'pending' : 'met';
}

export function incidentContribution(i: CountableIncident): IncidentContribution {
  const figures = timeFigures(i.created_at, transitionsOf(i.history));
  return {
    hour: hourOf(Date.parse(i.created_at)),
    status: i.status,
    severity: i.severity,
    sla: slaOutcome(i),
    ack: figures.time_to_acknowledge_seconds,
    res: figures.time_to_resolve_seconds,
  };
}

/** The counter attributes a contribution holds, each 1. */
function contributionAttributes(c: IncidentContribution): string[] {
  return [
    'n',
    `st#${c.status}`,
    `sv#${c.severity}`,
    ...(c.sla ? [`sla#${c.sla}`] : []),
    ...(c.ack !== null ? [`ack#${c.ack}`] : []),
    ...(c.res !== null ? [`res#${c.res}`] : []),
  ];
}

/**
 * What applying `next` in place of `previous` (null: nothing applied yet) adds to each hour's
 * counter item: the new contribution minus the old, zeros left out.
 */
export function contributionDelta(
  previous: IncidentContribution | null,
  next: IncidentContribution,
): Map<string, Record<string, number>> {
  const delta = new Map<string, Record<string, number>>();
  const move = (c: IncidentContribution, by: 1 | -1) => {
    const adds = delta.get(c.hour) ?? {};
    for (const name of contributionAttributes(c)) adds[name] = (adds[name] ?? 0) + by;
    delta.set(c.hour, adds);
  };
  if (previous) move(previous, -1);
  move(next, 1);
  for (const [hour, adds] of delta) {
    for (const [name, n] of Object.entries(adds)) if (n === 0) delete adds[name];
    if (Object.keys(adds).length === 0) delta.delete(hour);
  }
  return delta;
}

/**
 * The value at rank ceil(p × n) (1-based) of the sorted values, given as value -> how many times
 * (the nearest-rank method: always a value that occurred); null when there are none.
 */
export function nearestRank(counts: ReadonlyMap<number, number>, p: number): number | null {
  const values = [...counts].filter(([, n]) => n > 0).sort(([a], [b]) => a - b);
  const total = values.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (const [value, n] of values) {
    seen += n;
    if (seen >= rank) return value;
  }
  return values.at(-1)![0];
}

export interface AnalyticsSummary {
  incidents: {
    total: number;
    by_status: Record<IncidentStatus, number>;
    by_severity: Record<IncidentSeverity, number>;
  };
  response_time: { acknowledge: Durations; resolve: Durations };
  sla: { with_sla: number; met: number; breached: number; pending: number; compliance_rate: number | null };
  threats_by_type: Record<string, number>;
  threats_total: number;
}

interface Durations {
  count: number;
  median_seconds: number | null;
  p90_seconds: number | null;
}

function durations(counts: ReadonlyMap<number, number>): Durations {
  return {
    count: [...counts.values()].reduce((a, b) => a + b, 0),
    median_seconds: nearestRank(counts, 0.5),
    p90_seconds: nearestRank(counts, 0.9),
  };
}

/** The summary of a window from the incident counter items (by hour) and the `all` scope's event counter items (by day). */
export function summarize(
  incidentItems: readonly CounterItem[],
  eventItems: readonly CounterItem[],
  window: Window,
): AnalyticsSummary {
  const total = { n: 0 };
  const byStatus = Object.fromEntries(INCIDENT_STATUSES.map((s) => [s, 0])) as Record<IncidentStatus, number>;
  const bySeverity = Object.fromEntries(INCIDENT_SEVERITIES.map((s) => [s, 0])) as Record<IncidentSeverity, number>;
  const sla = Object.fromEntries(SLA_OUTCOMES.map((o) => [o, 0])) as Record<SlaOutcome, number>;
  const ack = new Map<number, number>();
  const res = new Map<number, number>();
  const bump = <K extends string>(record: Record<K, number>, key: string, n: number) => {
    if (key in record) record[key as K] += n;
  };
  const addTo = (map: Map<number, number>, seconds: string, n: number) =>
    map.set(Number(seconds), (map.get(Number(seconds)) ?? 0) + n);
  for (const item of incidentItems) {
    const at = startOfHour(item.period);
    if (at < window.fromMs || at >= window.toMs) continue;
    for (const [name, n] of Object.entries(item.counts)) {
      const [kind, value] = name.split('#');
      if (kind === 'n') total.n += n;
      else if (kind === 'st') bump(byStatus, value!, n);
      else if (kind === 'sv') bump(bySeverity, value!, n);
      else if (kind === 'sla') bump(sla, value!, n);
      else if (kind === 'ack') addTo(ack, value!, n);
      else if (kind === 'res') addTo(res, value!, n);
    }
  }
  const decided = sla.met + sla.breached;
  const byType = threatsByType(eventItems, window);
  return {
    incidents: { total: total.n, by_status: byStatus, by_severity: bySeverity },
    response_time: { acknowledge: durations(ack), resolve: durations(res) },
    sla: {
      with_sla: sla.met + sla.breached + sla.pending,
      ...sla,
      compliance_rate: decided > 0 ? Math.round((sla.met / decided) * 10_000) / 10_000 : null,
    },
    threats_by_type: byType,
    threats_total: Object.values(byType).reduce((a, b) => a + b, 0),
  };
}
