/**
 * Analytics without scans (issue 15, item 6), end to end: 1,000 events ingested through the API
 * in batches of 100 (their `occurred_at` spread over 40 days, across environments, zones and
 * types) and 200 incidents with known transitions (190 opened and moved by the domain with this
 * process's clock set back, so their times span weeks; 10 through the API). Once the stream worker
 * has caught up, every figure of both routes (three aggregations, filters by zone, environment and
 * type, the summary) must equal a recount made here from the raw items read from DynamoDB Local,
 * with code of its own (nothing of the production aggregation); and still after the worker is fed
 * a batch of the same records again, and stale incident images.
 *
 * 1,000 events: the recount is exact at any size, and 1,000 already fill every zone, both
 * overlapping zones, every environment, the days outside the 30-day window and hours on the hour
 * (asserted below). ANALYTICS_EVENTS=10000 runs the same test at the size it had until issue 33;
 * what 10,000 events cost the routes is bin/bench-analytics.ts's (1,000 and 10,000 per tenant).
 */
import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { countStreamRecords } from '../../functions/workers/count-analytics.js';
import { TABLE } from '../../shared/db/client.js';
import { eventFromItem } from '../../shared/db/events.js';
import { forEachPage } from '../../shared/db/query.js';
import { readItems } from '../../shared/db/read-batch.js';
import { openIncident, respond, type RespondInput } from '../../shared/domain/incidents/incidents.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';
import { asAdmin, call, createUser, registerTenant, type RegisteredTenant } from '../support/api.js';
import { atTime as at } from '../support/clock.js';
import { actorOf } from '../support/seed.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const EVENTS = Number(process.env.ANALYTICS_EVENTS ?? 1_000);
if (!Number.isInteger(EVENTS) || EVENTS < 1_000 || EVENTS % 100 !== 0)
  throw new Error('ANALYTICS_EVENTS: a multiple of 100, at least 1000');
const INCIDENTS_BY_DOMAIN = 190;
const INCIDENTS_BY_API = 10;

/** A small seeded generator: the same data every run. */
function seeded(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = seeded(15_6);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

async function queryAll(input: Omit<QueryCommandInput, 'TableName'>): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = [];
  await forEachPage({ TableName: TABLE, ...input }, (page) => {
    items.push(...(page.Items ?? []));
  });
  return items;
}

/** A tenant's incident items as stored: the ids its list rows name (scope `all`), then the items by key. */
async function incidentItemsOf(tenantId: string): Promise<Record<string, any>[]> {
  const rows = await queryAll({
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: { ':pk': `T#${tenantId}#INCL#all#c` },
    ConsistentRead: true,
  });
  const keys = rows.map((r) => ({ PK: `T#${tenantId}#INC#${String(r.SK).split('#').at(-1)}`, SK: 'INCIDENT' }));
  const read = await readItems(keys);
  return keys.map((k) => read.get(k)).filter((i): i is Record<string, any> => Boolean(i));
}

// ---------------------------------------------------------------------------------------------
// The recount: plain loops over the raw items, written for this test.

interface RawEvent {
  event_id: string;
  type: string;
  occurred_at: string;
  environment_id?: string | null;
  matched_zone_ids?: string[];
  threat_score?: number | null;
}

interface RawIncident {
  incident_id: string;
  created_at: string;
  status: string;
  severity: string;
  version: number;
  sla_due_at: string | null;
  sla_breached_at: string | null;
  history: { at: string; kind: string; detail: { from?: string | null; to?: string } }[];
}

/** Naive UTC buckets: start at the window's start, step by calendar units, cut to the window. */
function naiveBuckets(fromMs: number, toMs: number, aggregation: string): [number, number][] {
  const first = new Date(fromMs);
  let start: number;
  if (aggregation === 'hour') start = fromMs;
  else {
    start = Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), first.getUTCDate());
    if (aggregation === 'week') while (new Date(start).getUTCDay() !== 1) start -= DAY;
  }
  const out: [number, number][] = [];
  while (start < toMs) {
    const d = new Date(start);
    const next =
      aggregation === 'hour'
        ? start + HOUR
        : Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + (aggregation === 'day' ? 1 : 7));
    out.push([Math.max(start, fromMs), Math.min(next, toMs)]);
    start = next;
  }
  return out;
}

const milli = (e: RawEvent) => Math.round((e.threat_score ?? 0) * 1000);
const meanOf = (events: RawEvent[]) =>
  events.length === 0 ? null : Math.round(events.reduce((s, e) => s + milli(e), 0) / events.length) / 1000;

function recountSeries(events: RawEvent[], fromMs: number, toMs: number, aggregation: string) {
  const inWindow = events.filter((e) => Date.parse(e.occurred_at) >= fromMs && Date.parse(e.occurred_at) < toMs);
  return {
    buckets: naiveBuckets(fromMs, toMs, aggregation).map(([s, e]) => {
      const inside = inWindow.filter((x) => Date.parse(x.occurred_at) >= s && Date.parse(x.occurred_at) < e);
      return {
        start: new Date(s).toISOString(),
        end: new Date(e).toISOString(),
        count: inside.length,
        avg_threat_score: meanOf(inside),
      };
    }),
    total: inWindow.length,
    avg_threat_score: meanOf(inWindow),
  };
}

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.ceil(p * sorted.length) - 1]!;
}

function recountSummary(
  incidents: RawIncident[],
  events: RawEvent[],
  fromMs: number,
  toMs: number,
  types: readonly string[],
) {
  const mine = incidents.filter((i) => Date.parse(i.created_at) >= fromMs && Date.parse(i.created_at) < toMs);
  const count = (values: string[], key: (i: RawIncident) => string) =>
    Object.fromEntries(values.map((v) => [v, mine.filter((i) => key(i) === v).length]));
  const firstTo = (i: RawIncident, to: string) => i.history.find((h) => h.kind === 'status' && h.detail.to === to)?.at;
  const seconds = (to: string) =>
    mine
      .flatMap((i) => {
        const end = firstTo(i, to);
        if (!end) return [];
        const start = firstTo(i, 'confirmed') ?? i.created_at;
        return [Math.max(0, Math.round((Date.parse(end) - Date.parse(start)) / 1000))];
      })
      .sort((a, b) => a - b);
  const figures = (list: number[]) => ({
    count: list.length,
    median_seconds: percentile(list, 0.5),
    p90_seconds: percentile(list, 0.9),
  });
  const outcome = (i: RawIncident) =>
    !i.sla_due_at ? 'none' : i.sla_breached_at ? 'breached' : i.status === 'confirmed' ? 'pending' : 'met';
  const met = mine.filter((i) => outcome(i) === 'met').length;
  const breached = mine.filter((i) => outcome(i) === 'breached').length;
  const pending = mine.filter((i) => outcome(i) === 'pending').length;
  const threats = events.filter((e) => Date.parse(e.occurred_at) >= fromMs && Date.parse(e.occurred_at) < toMs);
  return {
    incidents: {
      total: mine.length,
      by_status: count(
        ['draft', 'confirmed', 'acknowledged', 'in_progress', 'on_hold', 'resolved', 'closed', 'cancelled'],
        (i) => i.status,
      ),
      by_severity: count(['low', 'medium', 'high', 'critical'], (i) => i.severity),
    },
    response_time: { acknowledge: figures(seconds('acknowledged')), resolve: figures(seconds('resolved')) },
    sla: {
      with_sla: met + breached + pending,
      met,
      breached,
      pending,
      compliance_rate: met + breached === 0 ? null : Math.round((met / (met + breached)) * 10_000) / 10_000,
    },
    threats_by_type: Object.fromEntries(types.map((t) => [t, threats.filter((e) => e.type === t).length])),
    threats_total: threats.length,
  };
}

// ---------------------------------------------------------------------------------------------
// The world

const TYPES = [
  'intrusion.detected',
  'perimeter.breach',
  'motion.detected',
  'door.forced',
  'glass.break',
  'vehicle.detected',
] as const;

interface Site {
  org: RegisteredTenant;
  viewer: { token: string };
  envs: string[];
  /** zone id -> its environment. */
  zones: Map<string, string>;
  startedAt: number;
  events: RawEvent[];
  incidents: RawIncident[];
}

let site: Site;
let allTypes: readonly string[];

async function post(path: string, body: unknown, org: RegisteredTenant) {
  const res = await call('POST', path, { token: org.token, body });
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** A point inside the circles named (and no other), in the environments' geometry below. */
const POINTS = {
  a: { lat: 59.91, lon: 10.747 },
  ab: { lat: 59.91, lon: 10.752 },
  b: { lat: 59.91, lon: 10.757 },
  c: { lat: 59.95, lon: 10.8 },
  none: { lat: 59.92, lon: 10.76 },
};

async function ingestEvents(org: RegisteredTenant, envs: string[], now: number): Promise<void> {
  const bodies: unknown[][] = [];
  for (let b = 0; b < EVENTS / 100; b++) {
    const batch: unknown[] = [];
    for (let i = 0; i < 100; i++) {
      const r = rand();
      const where =
        r < 0.45
          ? { environment_id: envs[0], location: POINTS[pick(['a', 'ab', 'b', 'none'] as const)] }
          : r < 0.75
            ? { environment_id: envs[1], location: POINTS[pick(['c', 'none'] as const)] }
            : r < 0.9
              ? { environment_id: envs[2], location: POINTS.none }
              : {};
      // Over 40 days back, to the millisecond; a few on the hour exactly.
      const back = rand() < 0.02 ? Math.floor(rand() * 40 * 24) * HOUR + (now % HOUR) : Math.floor(rand() * 40 * DAY);
      batch.push({
        type: pick(TYPES),
        occurred_at: new Date(now - back).toISOString(),
        severity: pick(['low', 'medium', 'high', 'critical']),
        ...where,
      });
    }
    bodies.push(batch);
  }
  // Four at a time.
  for (let i = 0; i < bodies.length; i += 4) {
    await Promise.all(bodies.slice(i, i + 4).map((events) => post('/api/v1/events/batch', { events }, org)));
  }
}

/**
 * What happens to an incident after it is opened: each step waits up to that many seconds (at
 * least one; `late`: past its SLA, then up to 900 s more) and moves it to that status.
 */
type Step = [wait: number | 'late', status: NonNullable<RespondInput['status']>];
const LIFECYCLES: { opened: 'draft' | 'confirmed'; steps: Step[] }[] = [
  { opened: 'draft', steps: [] },
  {
    opened: 'draft',
    steps: [
      [3000, 'confirmed'],
      [600, 'acknowledged'],
    ],
  },
  {
    opened: 'confirmed',
    steps: [
      [3000, 'acknowledged'],
      [20_000, 'resolved'],
    ],
  },
  {
    opened: 'confirmed',
    steps: [
      [3000, 'acknowledged'],
      [20_000, 'resolved'],
    ],
  },
  // Acknowledged after its SLA: breached.
  {
    opened: 'confirmed',
    steps: [
      ['late', 'acknowledged'],
      [9000, 'resolved'],
      [600, 'closed'],
    ],
  },
  {
    opened: 'confirmed',
    steps: [
      [1200, 'in_progress'],
      [7200, 'resolved'],
    ],
  },
  { opened: 'confirmed', steps: [[1800, 'cancelled']] },
  // Left waiting: pending (opened recently, low, so its SLA is not due).
  { opened: 'confirmed', steps: [] },
  { opened: 'confirmed', steps: [[300, 'acknowledged']] },
  // Reopened and resolved again: the first resolution is the one timed.
  {
    opened: 'confirmed',
    steps: [
      [200, 'acknowledged'],
      [4000, 'resolved'],
      [3000, 'in_progress'],
      [3000, 'resolved'],
      [300, 'closed'],
    ],
  },
];

/** 190 incidents through the domain at chosen past moments, walked through their lifecycles. */
async function openIncidents(org: RegisteredTenant, now: number): Promise<void> {
  const actor = actorOf(org);
  const tenantId = systemTenant(org.tenantId);
  const slaSeconds = { critical: 15 * 60, high: 60 * 60, medium: 240 * 60, low: 1440 * 60 } as const;
  for (let i = 0; i < INCIDENTS_BY_DOMAIN; i++) {
    const { opened, steps } = LIFECYCLES[i % LIFECYCLES.length]!;
    const pending = opened === 'confirmed' && steps.length === 0;
    const severity = pending ? 'low' : pick(['low', 'medium', 'high', 'critical'] as const);
    // Pending ones are recent; the others from 2 to 40 days back.
    let t = pending
      ? now - 30 * 60_000 + Math.floor(rand() * 20 * 60_000)
      : now - 2 * DAY - Math.floor(rand() * 38 * DAY);
    const { incident_id: id } = await at(t, () =>
      openIncident(actor, tenantId, { title: `Incident ${i}`, severity, status: opened }),
    );
    for (const [wait, status] of steps) {
      const max = wait === 'late' ? 900 : wait;
      t += (wait === 'late' ? slaSeconds[severity] * 1000 : 0) + 1000 + Math.floor(rand() * max * 1000);
      await at(t, () =>
        respond(actor, tenantId, id, {
          status,
          ...(status === 'resolved' ? { resolution: 'true_positive' as const } : {}),
        }),
      );
    }
  }
}

/** Whether the worker has counted every event, and every incident at its current version. */
async function caughtUp(tenantId: string): Promise<boolean> {
  const [incidents, markers] = await Promise.all([
    incidentItemsOf(tenantId),
    queryAll({
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': `T#${tenantId}#COUNTED` },
      ConsistentRead: true,
    }),
  ]);
  const eventMarkers = markers.filter((m) => String(m.SK).startsWith('EV#')).length;
  const versions = new Map(
    markers.filter((m) => String(m.SK).startsWith('INC#')).map((m) => [m.incident_id as string, m.version as number]),
  );
  return (
    eventMarkers === EVENTS &&
    incidents.length === INCIDENTS_BY_DOMAIN + INCIDENTS_BY_API &&
    incidents.every((i) => versions.get(i.incident_id) === i.version)
  );
}

async function readRaw(tenantId: string): Promise<{ events: RawEvent[]; incidents: RawIncident[] }> {
  const [events, incidents] = await Promise.all([
    queryAll({
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': `T#${tenantId}#EVENT` },
      ConsistentRead: true,
    }),
    incidentItemsOf(tenantId),
  ]);
  // An event item holds some fields in its keys only (shared/db/event-items.ts): read as stored.
  return { events: events.map(eventFromItem), incidents: incidents as RawIncident[] };
}

beforeAll(async () => {
  const startedAt = Date.now();
  const org = await registerTenant('Analytics');
  const admin = await asAdmin();
  // No plan rate in the way of 100 batches, and no incident opened by a score: the test opens its own.
  expect(
    (await call('PATCH', `/api/v1/tenants/${org.tenantId}`, { token: admin, body: { plan: 'enterprise' } })).status,
  ).toBe(200);
  expect(
    (await call('PATCH', `/api/v1/tenants/${org.tenantId}/config`, { token: admin, body: { incident_threshold: 1 } }))
      .status,
  ).toBe(200);
  const viewer = await createUser(org.token, 'VIEWER');
  const envs: string[] = [];
  for (const name of ['Harbour', 'Depot', 'Office'])
    envs.push((await post('/api/v1/environments', { name, type: 'port' }, org)).environment_id);
  const zones = new Map<string, string>();
  const zone = async (env: string, name: string, center: [number, number]) =>
    zones.set(
      (
        await post(
          '/api/v1/zones',
          { environment_id: env, name, security_level: 4, geofence: { type: 'Circle', center, radius_m: 300 } },
          org,
        )
      ).zone_id,
      env,
    );
  // A and B overlap (their centres about 220 m apart); C is in the second environment.
  await zone(envs[0]!, 'Quay A', [10.75, 59.91]);
  await zone(envs[0]!, 'Quay B', [10.754, 59.91]);
  await zone(envs[1]!, 'Yard C', [10.8, 59.95]);

  await openIncidents(org, startedAt);
  for (let i = 0; i < INCIDENTS_BY_API; i++) {
    const opened = (await post(
      '/api/v1/incidents',
      { title: `Reported ${i}`, severity: pick(['low', 'medium', 'high', 'critical']) },
      org,
    )) as { incident_id: string };
    if (i % 2 === 0) {
      const res = await call('PATCH', `/api/v1/incidents/${opened.incident_id}/respond`, {
        token: org.token,
        body: { status: 'acknowledged' },
      });
      expect(res.status).toBe(200);
    }
  }
  await ingestEvents(org, envs, startedAt);

  const deadline = Date.now() + 240_000;
  while (!(await caughtUp(org.tenantId))) {
    if (Date.now() > deadline) throw new Error('the stream worker did not catch up within 4 minutes');
    await new Promise((r) => setTimeout(r, 500));
  }
  const raw = await readRaw(org.tenantId);
  expect(raw.events).toHaveLength(EVENTS);
  site = { org, viewer, envs, zones, startedAt, ...raw };
  allTypes = (await import('../../shared/schemas/events.js')).EVENT_TYPES;
}, 600_000);

const threats = (query: Record<string, string>, token = site.viewer.token) =>
  call('GET', '/api/v1/analytics/threats', { token, query });
const summary = (query: Record<string, string> = {}, token = site.viewer.token) =>
  call('GET', '/api/v1/analytics/summary', { token, query: { tenant_id: site.org.tenantId, ...query } });

/** The filters to check: every scope, alone and with a type, and a zone with the wrong environment. */
function filters(): { query: Record<string, string>; keep: (e: RawEvent) => boolean }[] {
  const [envA, envB, envC] = site.envs as [string, string, string];
  const [zoneA, , zoneC] = [...site.zones.keys()] as [string, string, string];
  const inZone = (z: string) => (e: RawEvent) => (e.matched_zone_ids ?? []).includes(z);
  const inEnv = (id: string) => (e: RawEvent) => e.environment_id === id;
  const ofType = (t: string) => (e: RawEvent) => e.type === t;
  return [
    { query: {}, keep: () => true },
    ...[...site.zones.keys()].map((z) => ({ query: { zone_id: z }, keep: inZone(z) })),
    ...[envA, envB, envC].map((env) => ({ query: { environment_id: env }, keep: inEnv(env) })),
    ...TYPES.slice(0, 3).map((t) => ({ query: { threat_type: t }, keep: ofType(t) })),
    {
      query: { zone_id: zoneA, threat_type: 'door.forced' },
      keep: (e: RawEvent) => inZone(zoneA)(e) && e.type === 'door.forced',
    },
    {
      query: { environment_id: envB, threat_type: 'glass.break' },
      keep: (e: RawEvent) => inEnv(envB)(e) && e.type === 'glass.break',
    },
    { query: { zone_id: zoneC, environment_id: envB }, keep: inZone(zoneC) },
    { query: { zone_id: zoneA, environment_id: envB }, keep: () => false },
    { query: { threat_type: 'sensor.tamper' }, keep: () => false },
  ];
}

/** The windows to check: the default, one with edges inside hours, one across a week's turn. */
function windows(): Record<string, string>[] {
  const now = site.startedAt;
  return [
    {},
    {
      from_date: new Date(now - 20 * DAY + 17 * 60_000 + 3_250).toISOString(),
      to_date: new Date(now - 3 * DAY - 5 * 60_000).toISOString(),
    },
    { from_date: new Date(now - 41 * DAY).toISOString(), to_date: new Date(now - 31 * DAY + 1).toISOString() },
  ];
}

async function expectRecounted(
  label: string,
  query: Record<string, string>,
  keep: (e: RawEvent) => boolean,
): Promise<void> {
  const res = await threats(query);
  expect(res.status, `${label}: ${res.text}`).toBe(200);
  const fromMs = Date.parse(res.body.from_date);
  const toMs = Date.parse(res.body.to_date);
  const expected = recountSeries(site.events.filter(keep), fromMs, toMs, query.aggregation ?? 'day');
  expect(
    { buckets: res.body.buckets, total: res.body.total, avg_threat_score: res.body.avg_threat_score },
    label,
  ).toEqual(expected);
}

/** Every filter, every window, every aggregation: the answer equals the recount. */
async function expectEveryFigureRecounted(): Promise<number> {
  let checked = 0;
  for (const window of windows()) {
    for (const aggregation of ['hour', 'day', 'week']) {
      for (const { query, keep } of filters()) {
        const q = { ...window, aggregation, ...query };
        await expectRecounted(JSON.stringify(q), q, keep);
        checked++;
      }
    }
  }
  for (const window of windows()) {
    const res = await summary(window);
    expect(res.status).toBe(200);
    const expected = recountSummary(
      site.incidents,
      site.events,
      Date.parse(res.body.from_date),
      Date.parse(res.body.to_date),
      allTypes,
    );
    expect(res.body, JSON.stringify(window)).toMatchObject({
      tenant_id: site.org.tenantId,
      timezone: 'UTC',
      ...expected,
    });
    checked++;
  }
  return checked;
}

describe('analytics.threats', () => {
  it(`every figure of ${EVENTS.toLocaleString('en')} events equals a recount from the raw items: every aggregation, window and filter`, async () => {
    expect(await expectEveryFigureRecounted()).toBe(3 * 3 * filters().length + 3);
    // The data is what the test means it to be: events in every zone and outside the window.
    expect(new Set(site.events.flatMap((e) => e.matched_zone_ids ?? []))).toEqual(new Set(site.zones.keys()));
    expect(site.events.some((e) => (e.matched_zone_ids ?? []).length === 2)).toBe(true);
    expect(site.events.some((e) => Date.parse(e.occurred_at) < site.startedAt - 30 * DAY)).toBe(true);
    // At 1,000 events too (issue 33 made the test smaller): every environment, and hours' edges.
    expect(new Set(site.events.flatMap((e) => (e.environment_id ? [e.environment_id] : [])))).toEqual(
      new Set(site.envs),
    );
    expect(site.events.some((e) => !e.environment_id)).toBe(true);
    expect(site.events.some((e) => Date.parse(e.occurred_at) % HOUR === 0)).toBe(true);
  }, 300_000);

  it('states the window it used, widened to whole UTC hours, and lists every bucket', async () => {
    const res = await threats({
      from_date: '2026-01-05T10:30:00.000Z',
      to_date: '2026-01-12T10:30:00.000Z',
      aggregation: 'week',
    });
    expect(res.body).toMatchObject({
      tenant_id: site.org.tenantId,
      timezone: 'UTC',
      from_date: '2026-01-05T10:00:00.000Z',
      to_date: '2026-01-12T11:00:00.000Z',
      aggregation: 'week',
      zone_id: null,
      environment_id: null,
      threat_type: null,
    });
    expect(res.body.buckets.map((b: { start: string; end: string }) => [b.start, b.end])).toEqual([
      ['2026-01-05T10:00:00.000Z', '2026-01-12T00:00:00.000Z'],
      ['2026-01-12T00:00:00.000Z', '2026-01-12T11:00:00.000Z'],
    ]);
    const byDefault = await threats({});
    const to = Date.parse(byDefault.body.to_date);
    expect(to % HOUR).toBe(0);
    expect(to - site.startedAt).toBeGreaterThan(0);
    expect(to - Date.now()).toBeLessThanOrEqual(HOUR);
    // 30 days before now, rounded down: now is in the hour before `to_date` (or on it).
    const from = Date.parse(byDefault.body.from_date);
    expect(from % HOUR).toBe(0);
    expect(to - 30 * DAY - from).toBeGreaterThanOrEqual(0);
    expect(to - 30 * DAY - from).toBeLessThanOrEqual(HOUR);
    expect(byDefault.body.aggregation).toBe('day');
    expect(byDefault.body.buckets.length).toBeGreaterThanOrEqual(30);
  });

  it('refuses what it cannot answer: dates out of order or too far apart, a bad aggregation (422, naming the field)', async () => {
    const reversed = await threats({ from_date: '2026-02-02T00:00:00Z', to_date: '2026-02-01T00:00:00Z' });
    expect(reversed.status).toBe(422);
    expect(reversed.body.detail[0].loc).toEqual(['query', 'to_date']);
    const long = await threats({ from_date: '2024-01-01T00:00:00Z', to_date: '2026-01-01T00:00:00Z' });
    expect(long.status).toBe(422);
    expect(long.body.detail[0]).toMatchObject({
      loc: ['query', 'from_date'],
      msg: expect.stringContaining('400 days'),
    });
    expect((await threats({ aggregation: 'month' })).status).toBe(422);
    expect((await threats({ threat_type: 'not.a.type' })).status).toBe(422);
  });

  it("another tenant's zone, environment or tenant is 404 exactly as an unknown one, and counts for nothing", async () => {
    const other = await registerTenant('Analytics other');
    const zone = [...site.zones.keys()][0]!;
    const unknownZone = await threats({ zone_id: randomUUID() }, other.token);
    const foreignZone = await threats({ zone_id: zone }, other.token);
    expect([unknownZone.status, foreignZone.status]).toEqual([404, 404]);
    expect(foreignZone.body).toEqual(unknownZone.body);
    const foreignEnv = await threats({ environment_id: site.envs[0]! }, other.token);
    expect(foreignEnv.status).toBe(404);
    expect(foreignEnv.body).toEqual((await threats({ environment_id: randomUUID() }, other.token)).body);
    const foreignTenant = await threats({ tenant_id: site.org.tenantId }, other.token);
    expect(foreignTenant.status).toBe(404);
    expect(foreignTenant.body).toEqual({ detail: 'Tenant not found' });
    // The other tenant's own figures: nothing of this one.
    const own = await threats({}, other.token);
    expect(own.status).toBe(200);
    expect(own.body.total).toBe(0);
    // A platform administrator may name the tenant.
    const asSuper = await threats({ tenant_id: site.org.tenantId }, await asAdmin());
    expect(asSuper.status).toBe(200);
    expect(asSuper.body.total).toBe((await threats({})).body.total);
  });
});

describe('analytics.summary', () => {
  it('incidents by status and severity, exact response-time percentiles, SLA compliance and threats by type equal the recount', async () => {
    const res = await summary();
    expect(res.status).toBe(200);
    const expected = recountSummary(
      site.incidents,
      site.events,
      Date.parse(res.body.from_date),
      Date.parse(res.body.to_date),
      allTypes,
    );
    expect(res.body).toEqual({
      tenant_id: site.org.tenantId,
      timezone: 'UTC',
      from_date: res.body.from_date,
      to_date: res.body.to_date,
      ...expected,
    });
    // The data covers what the figures are about.
    expect(res.body.sla.breached).toBeGreaterThan(0);
    expect(res.body.sla.met).toBeGreaterThan(0);
    expect(res.body.sla.pending).toBeGreaterThan(0);
    expect(res.body.response_time.acknowledge.count).toBeGreaterThan(50);
    expect(res.body.response_time.resolve.count).toBeGreaterThan(30);
    expect(res.body.incidents.by_status.draft).toBeGreaterThan(0);
    // Incidents opened more than 30 days back are outside the default window.
    expect(res.body.incidents.total).toBeLessThan(INCIDENTS_BY_DOMAIN + INCIDENTS_BY_API);
    const everything = await summary({ from_date: new Date(site.startedAt - 45 * DAY).toISOString() });
    expect(everything.body.incidents.total).toBe(INCIDENTS_BY_DOMAIN + INCIDENTS_BY_API);
    expect(everything.body.threats_total).toBe(EVENTS);
  });

  it('takes the tenant from the credential (tenant_id optional), answers 404 for another tenant, and VIEWER is enough', async () => {
    const own = await call('GET', '/api/v1/analytics/summary', { token: site.viewer.token });
    expect(own.status).toBe(200);
    expect(own.body.tenant_id).toBe(site.org.tenantId);
    const other = await registerTenant('Analytics stranger');
    const foreign = await call('GET', '/api/v1/analytics/summary', {
      token: other.token,
      query: { tenant_id: site.org.tenantId },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: 'Tenant not found' });
    expect((await call('GET', '/api/v1/analytics/summary', { query: { tenant_id: site.org.tenantId } })).status).toBe(
      401,
    );
  });
});

describe('analytics: the worker fed the same records again', () => {
  const record = (eventName: 'INSERT' | 'MODIFY', item: Record<string, unknown>, n: number): DynamoDBRecord => ({
    eventName,
    eventSource: 'aws:dynamodb',
    dynamodb: {
      SequenceNumber: `9${String(n).padStart(20, '0')}`,
      NewImage: marshall(item, { removeUndefinedValues: true }) as never,
    },
  });

  it('counts nothing twice: a batch of events again, every incident again, and stale incident images', async () => {
    const tenantId = site.org.tenantId;
    // 100 events from all over the partition (so over many days), as stored.
    const step = EVENTS / 100;
    const eventItems = (
      await queryAll({
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': `T#${tenantId}#EVENT` },
      })
    ).filter((_, i) => i % step === 7 % step);
    const incidentItems = await incidentItemsOf(tenantId);
    // Stale images: an older version of moved incidents, as a redriven batch would bring them.
    const stale = incidentItems
      .filter((i) => i.version > 1)
      .slice(0, 40)
      .map((i) => ({
        ...i,
        version: i.version - 1,
        status: 'confirmed',
        sla_breached_at: null,
        history: i.history.slice(0, 2),
      }));
    const records = [
      ...eventItems.slice(0, 100).map((item, n) => record('INSERT', item, n)),
      ...incidentItems.map((item, n) => record('MODIFY', item, 1000 + n)),
      ...stale.map((item, n) => record('MODIFY', item, 2000 + n)),
    ];
    expect(eventItems).toHaveLength(100);
    expect(stale.length).toBeGreaterThan(10);
    for (let i = 0; i < records.length; i += 100)
      expect(await countStreamRecords(records.slice(i, i + 100))).toEqual({ batchItemFailures: [] });
    // The whole acceptance check again.
    expect(await expectEveryFigureRecounted()).toBe(3 * 3 * filters().length + 3);
  }, 300_000);
});
