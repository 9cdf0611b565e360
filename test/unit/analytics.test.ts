/** The pure part of analytics: windows, UTC buckets and ISO weeks, nearest-rank percentiles, contributions and their deltas. */
import { describe, expect, it } from 'vitest';
import {
  bucketsOf,
  bucketStart,
  contributionDelta,
  eventAdds,
  incidentContribution,
  nearestRank,
  slaOutcome,
  summarize,
  threatSeries,
  windowKeys,
  windowOf,
  type CounterItem,
  type IncidentContribution,
} from '../../shared/domain/analytics/counters.js';
import { RequestValidationError } from '../../shared/errors.js';
import type { HistoryEntry } from '../../shared/db/incidents.js';

const ms = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString();
const NOW = ms('2026-03-10T12:34:56.789Z');

function issueOf(run: () => unknown) {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(RequestValidationError);
    return (err as RequestValidationError).issues[0];
  }
  throw new Error('no error');
}

describe('analytics windows', () => {
  it('defaults to the 30 days before now, widened to whole UTC hours', () => {
    const w = windowOf({}, NOW);
    expect([iso(w.fromMs), iso(w.toMs)]).toEqual(['2026-02-08T12:00:00.000Z', '2026-03-10T13:00:00.000Z']);
  });

  it('rounds from_date down and to_date up to the hour; whole hours stay; the window is at least an hour', () => {
    const w = windowOf({ from_date: '2026-03-01T05:59:59.999Z', to_date: '2026-03-02T00:00:00.001Z' }, NOW);
    expect([iso(w.fromMs), iso(w.toMs)]).toEqual(['2026-03-01T05:00:00.000Z', '2026-03-02T01:00:00.000Z']);
    const exact = windowOf({ from_date: '2026-03-01T00:00:00Z', to_date: '2026-03-02T00:00:00Z' }, NOW);
    expect([iso(exact.fromMs), iso(exact.toMs)]).toEqual(['2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z']);
    const instant = windowOf({ from_date: '2026-03-01T07:00:00Z', to_date: '2026-03-01T07:00:00Z' }, NOW);
    expect(instant.toMs - instant.fromMs).toBe(3_600_000);
  });

  it('defaults from_date to 30 days before a given to_date', () => {
    const w = windowOf({ to_date: '2025-01-31T00:00:00Z' }, NOW);
    expect(iso(w.fromMs)).toBe('2025-01-01T00:00:00.000Z');
  });

  it('refuses to_date before from_date, and windows over 400 days, naming the field', () => {
    expect(
      issueOf(() => windowOf({ from_date: '2026-03-02T00:00:00Z', to_date: '2026-03-01T00:00:00Z' }, NOW)),
    ).toMatchObject({ loc: ['query', 'to_date'] });
    expect(issueOf(() => windowOf({ from_date: '2026-04-01T00:00:00Z' }, NOW))).toMatchObject({
      loc: ['query', 'from_date'],
    });
    expect(
      issueOf(() => windowOf({ from_date: '2025-01-01T00:00:00Z', to_date: '2026-02-05T00:00:01Z' }, NOW)),
    ).toMatchObject({ loc: ['query', 'from_date'], msg: expect.stringContaining('400 days') });
    expect(() => windowOf({ from_date: '2025-01-01T00:00:00Z', to_date: '2026-02-05T00:00:00Z' }, NOW)).not.toThrow();
  });

  it('names the days and hours of its first and last hour', () => {
    expect(windowKeys({ fromMs: ms('2026-03-01T23:00:00Z'), toMs: ms('2026-03-03T00:00:00Z') })).toEqual({
      fromDay: '2026-03-01',
      toDay: '2026-03-02',
      fromHour: '2026-03-01T23',
      toHour: '2026-03-02T23',
    });
  });
});

describe('analytics buckets', () => {
  it('ISO weeks start on Monday 00:00 UTC, before 1970 too', () => {
    expect(iso(bucketStart('week', ms('2026-03-10T12:00:00Z')))).toBe('2026-03-09T00:00:00.000Z');
    expect(iso(bucketStart('week', ms('2026-03-09T00:00:00Z')))).toBe('2026-03-09T00:00:00.000Z');
    expect(iso(bucketStart('week', ms('2026-03-15T23:59:59.999Z')))).toBe('2026-03-09T00:00:00.000Z');
    expect(iso(bucketStart('week', ms('1969-12-31T10:00:00Z')))).toBe('1969-12-29T00:00:00.000Z');
    expect(iso(bucketStart('day', ms('2026-03-10T12:00:00Z')))).toBe('2026-03-10T00:00:00.000Z');
    expect(iso(bucketStart('hour', ms('2026-03-10T12:59:00Z')))).toBe('2026-03-10T12:00:00.000Z');
  });

  it('lists every bucket of the window, the first and last cut to it', () => {
    const w = { fromMs: ms('2026-03-09T13:00:00Z'), toMs: ms('2026-03-11T05:00:00Z') };
    expect(bucketsOf(w, 'day').map(([a, b]) => [iso(a), iso(b)])).toEqual([
      ['2026-03-09T13:00:00.000Z', '2026-03-10T00:00:00.000Z'],
      ['2026-03-10T00:00:00.000Z', '2026-03-11T00:00:00.000Z'],
      ['2026-03-11T00:00:00.000Z', '2026-03-11T05:00:00.000Z'],
    ]);
    expect(bucketsOf(w, 'hour')).toHaveLength(40);
    const weeks = bucketsOf({ fromMs: ms('2026-03-05T00:00:00Z'), toMs: ms('2026-03-20T00:00:00Z') }, 'week');
    expect(weeks.map(([a, b]) => [iso(a), iso(b)])).toEqual([
      ['2026-03-05T00:00:00.000Z', '2026-03-09T00:00:00.000Z'],
      ['2026-03-09T00:00:00.000Z', '2026-03-16T00:00:00.000Z'],
      ['2026-03-16T00:00:00.000Z', '2026-03-20T00:00:00.000Z'],
    ]);
  });

  it('a series counts only the hours of the window, per type or all, with zeros and mean scores', () => {
    const items: CounterItem[] = [
      {
        period: '2026-03-09',
        counts: { 'c#door.forced#12': 2, 's#door.forced#12': 1500, 'c#glass.break#13': 1, 's#glass.break#13': 333 },
      },
      { period: '2026-03-10', counts: { 'c#door.forced#00': 4, 's#door.forced#00': 1000, 'c#door.forced#05': 7 } },
    ];
    const w = { fromMs: ms('2026-03-09T13:00:00Z'), toMs: ms('2026-03-10T05:00:00Z') };
    const all = threatSeries(items, w, 'day');
    expect(all.buckets).toEqual([
      { start: '2026-03-09T13:00:00.000Z', end: '2026-03-10T00:00:00.000Z', count: 1, avg_threat_score: 0.333 },
      { start: '2026-03-10T00:00:00.000Z', end: '2026-03-10T05:00:00.000Z', count: 4, avg_threat_score: 0.25 },
    ]);
    expect(all).toMatchObject({ total: 5, avg_threat_score: 0.267 });
    const doors = threatSeries(items, w, 'hour', 'door.forced');
    expect(doors.buckets).toHaveLength(16);
    expect(doors.buckets.filter((b) => b.count > 0)).toEqual([
      { start: '2026-03-10T00:00:00.000Z', end: '2026-03-10T01:00:00.000Z', count: 4, avg_threat_score: 0.25 },
    ]);
    expect(doors.buckets[0]).toEqual({
      start: '2026-03-09T13:00:00.000Z',
      end: '2026-03-09T14:00:00.000Z',
      count: 0,
      avg_threat_score: null,
    });
  });

  it('an event counts in all, its environment and each zone it matched, in its UTC hour, its score in thousandths', () => {
    expect(
      eventAdds({
        type: 'door.forced',
        occurredAt: '2026-03-09T23:59:59.999+00:00',
        environmentId: 'e1',
        zoneIds: ['z1', 'z2', 'z1'],
        threatScore: 0.617,
      }),
    ).toEqual({
      day: '2026-03-09',
      scopes: ['all', 'env#e1', 'zone#z1', 'zone#z2'],
      add: { 'c#door.forced#23': 1, 's#door.forced#23': 617 },
    });
    expect(
      eventAdds({
        type: 'sensor.heartbeat',
        occurredAt: '2026-03-10T01:00:00+02:00',
        environmentId: null,
        zoneIds: [],
        threatScore: 0,
      }),
    ).toEqual({
      day: '2026-03-09',
      scopes: ['all'],
      add: { 'c#sensor.heartbeat#23': 1 },
    });
  });
});

describe('nearest-rank percentiles', () => {
  const of = (values: number[]) =>
    new Map(values.reduce((m, v) => m.set(v, (m.get(v) ?? 0) + 1), new Map<number, number>()));

  it('is the value at rank ceil(p × n) of the sorted values', () => {
    expect(nearestRank(of([4, 1, 3, 2]), 0.5)).toBe(2);
    expect(nearestRank(of([4, 1, 3, 2]), 0.9)).toBe(4);
    expect(nearestRank(of([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), 0.9)).toBe(9);
    expect(nearestRank(of([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]), 0.9)).toBe(10);
    expect(nearestRank(of([7]), 0.5)).toBe(7);
    expect(nearestRank(of([7]), 0.9)).toBe(7);
    expect(nearestRank(new Map(), 0.5)).toBeNull();
    // Repeated values, and counts taken back to zero.
    expect(
      nearestRank(
        new Map([
          [30, 3],
          [10, 1],
          [20, 0],
        ]),
        0.5,
      ),
    ).toBe(30);
    expect(nearestRank(new Map([[5, 0]]), 0.5)).toBeNull();
  });
});

describe('incident contributions', () => {
  const status = (at: string, from: string | null, to: string): HistoryEntry => ({
    at,
    kind: 'status',
    by: 'u',
    detail: { from, to },
  });
  const created = '2026-03-09T10:15:00.000Z';
  const base = {
    created_at: created,
    severity: 'high' as const,
    sla_due_at: '2026-03-09T11:15:00.000Z',
    sla_breached_at: null,
  };

  it('is its creation hour, status, severity, SLA outcome and whole seconds to acknowledge and resolve (from confirmation)', () => {
    const history = [
      status(created, null, 'draft'),
      status('2026-03-09T10:20:00.000Z', 'draft', 'confirmed'),
      status('2026-03-09T10:21:30.400Z', 'confirmed', 'acknowledged'),
      status('2026-03-09T12:20:00.000Z', 'acknowledged', 'resolved'),
    ];
    expect(incidentContribution({ ...base, status: 'resolved', history })).toEqual({
      hour: '2026-03-09T10',
      status: 'resolved',
      severity: 'high',
      sla: 'met',
      ack: 90,
      res: 7200,
    });
    expect(
      incidentContribution({ ...base, status: 'draft', sla_due_at: null, history: [status(created, null, 'draft')] }),
    ).toEqual({
      hour: '2026-03-09T10',
      status: 'draft',
      severity: 'high',
      sla: null,
      ack: null,
      res: null,
    });
  });

  it("follows the SLA clock's record: breached once marked, pending while confirmed, else met", () => {
    expect(slaOutcome({ status: 'draft', sla_due_at: null, sla_breached_at: null })).toBeNull();
    expect(slaOutcome({ status: 'confirmed', sla_due_at: base.sla_due_at, sla_breached_at: null })).toBe('pending');
    expect(slaOutcome({ status: 'confirmed', sla_due_at: base.sla_due_at, sla_breached_at: base.sla_due_at })).toBe(
      'breached',
    );
    expect(slaOutcome({ status: 'acknowledged', sla_due_at: base.sla_due_at, sla_breached_at: base.sla_due_at })).toBe(
      'breached',
    );
    expect(slaOutcome({ status: 'cancelled', sla_due_at: base.sla_due_at, sla_breached_at: null })).toBe('met');
  });

  it('a change moves the difference only; the same contribution moves nothing', () => {
    const before: IncidentContribution = {
      hour: '2026-03-09T10',
      status: 'confirmed',
      severity: 'high',
      sla: 'pending',
      ack: null,
      res: null,
    };
    const after: IncidentContribution = { ...before, status: 'acknowledged', sla: 'breached', ack: 4000 };
    expect(Object.fromEntries(contributionDelta(null, before))).toEqual({
      '2026-03-09T10': { n: 1, 'st#confirmed': 1, 'sv#high': 1, 'sla#pending': 1 },
    });
    expect(Object.fromEntries(contributionDelta(before, after))).toEqual({
      '2026-03-09T10': {
        'st#confirmed': -1,
        'st#acknowledged': 1,
        'sla#pending': -1,
        'sla#breached': 1,
        'ack#4000': 1,
      },
    });
    expect(contributionDelta(after, after).size).toBe(0);
  });

  it('a summary sums the hours of the window: counts, exact percentiles, compliance', () => {
    const incidents: CounterItem[] = [
      {
        period: '2026-03-09T10',
        counts: {
          n: 3,
          'st#resolved': 2,
          'st#confirmed': 1,
          'st#acknowledged': 0,
          'sv#high': 3,
          'sla#met': 2,
          'sla#pending': 1,
          'ack#90': 1,
          'ack#30': 1,
          'res#7200': 2,
        },
      },
      { period: '2026-03-09T11', counts: { n: 1, 'st#confirmed': 1, 'sv#low': 1, 'sla#breached': 1 } },
      { period: '2026-03-10T05', counts: { n: 5, 'st#draft': 5, 'sv#low': 5 } },
    ];
    const events: CounterItem[] = [
      { period: '2026-03-09', counts: { 'c#door.forced#10': 2, 'c#door.forced#23': 9, 's#door.forced#10': 100 } },
    ];
    const s = summarize(incidents, events, { fromMs: ms('2026-03-09T10:00:00Z'), toMs: ms('2026-03-09T12:00:00Z') });
    expect(s.incidents).toMatchObject({
      total: 4,
      by_status: { resolved: 2, confirmed: 2, draft: 0 },
      by_severity: { high: 3, low: 1, medium: 0 },
    });
    expect(s.response_time).toEqual({
      acknowledge: { count: 2, median_seconds: 30, p90_seconds: 90 },
      resolve: { count: 2, median_seconds: 7200, p90_seconds: 7200 },
    });
    expect(s.sla).toEqual({ with_sla: 4, met: 2, breached: 1, pending: 1, compliance_rate: 0.6667 });
    expect(s.threats_by_type['door.forced']).toBe(2);
    expect(s.threats_by_type['glass.break']).toBe(0);
    expect(s.threats_total).toBe(2);
  });
});
