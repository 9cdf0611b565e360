/**
 * Analytics benchmark (a script, not a test): shows that a 30-day threat series and a summary cost
 * the same for a tenant with 1,000 events as for one with 10,000 (or more), because they read
 * counters, never events.
 *
 * Runs the local stack with the stream workers (the counters are kept as in AWS) and the metering
 * proxy in front of DynamoDB Local (shared/local/dynamodb-meter.ts); makes one tenant per size,
 * ingests its events through the API (batches of 100, `occurred_at` spread over the last 30 days,
 * in two environments and a zone) and 50 incidents, waits until the worker has counted them, then
 * for each tenant and query prints the handler's median and 95th-percentile time (the local
 * server's Server-Timing, the tenants taking turns, the proxy only forwarding then), the DynamoDB
 * calls and read units of one request, and the counter items in the range it reads. Times on a
 * shared machine are noisy; the calls and units are exact.
 *
 *   npx tsx bin/bench-analytics.ts
 *
 * Options (env): BENCH_SIZES (events per tenant, default `1000,10000`), BENCH_REPEAT (timed
 * requests per query, default 30).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { confirmationLinkMailed } from './local-mail.js';
import type { DynamoDbMeter, Tally } from '../shared/local/dynamodb-meter.js';

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000').split(',').map(Number);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 30);
const DAY = 86_400_000;

process.env.LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
const { startLocalStack } = await import('../shared/local/stack.js');
const { startDynamoDbMeter } = await import('../shared/local/dynamodb-meter.js');
const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-analytics-'));
let meter: DynamoDbMeter | undefined;
// Workers on (the default): the stream worker keeps the counters, through the meter too.
const stack = await startLocalStack({
  dataDir,
  persist: false,
  schedules: false,
  dynamodbFront: async (endpoint: string) => {
    meter = await startDynamoDbMeter(endpoint);
    return meter;
  },
});
const { ensureLocalAdmin, localAdminFromEnv } = await import('../shared/local/admin.js');
const { startHttpServer } = await import('../shared/local/http-server.js');
const { queryCount } = await import('../shared/db/query.js');
await ensureLocalAdmin(localAdminFromEnv());
const server = await startHttpServer({ port: 0 });
const ADMIN = {
  email: process.env.GATEHOUSE_ADMIN_EMAIL ?? 'admin@gatehouse.local',
  password: process.env.GATEHOUSE_ADMIN_PASSWORD ?? 'Gatehouse-admin-1',
};

let lastHandlerMs = NaN;
async function api<T = unknown>(
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
  query: Record<string, string> = {},
): Promise<T> {
  const url = new URL(path, server.url);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  lastHandlerMs = Number(/handler;dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? NaN);
  return (text ? JSON.parse(text) : null) as T;
}
const login = async (email: string, password: string) =>
  (await api<{ access_token: string }>('POST', '/api/v1/portal/login', undefined, { email, password })).access_token;

interface Tenant {
  size: number;
  tenantId: string;
  token: string;
  zoneId: string;
}

const TYPES = [
  'intrusion.detected',
  'perimeter.breach',
  'motion.detected',
  'door.forced',
  'glass.break',
  'vehicle.detected',
];

async function makeTenant(size: number, admin: string, now: number): Promise<Tenant> {
  const tag = Math.random().toString(36).slice(2, 8);
  const email = `bench-${tag}@analytics.example`;
  const password = `Bench-${tag}-Pass1`;
  const reg = await api<{ tenant_id: string }>('POST', '/api/v1/portal/register', undefined, {
    email,
    password,
    organization_name: `Bench ${size}`,
  });
  await api('POST', await confirmationLinkMailed(join(dataDir, 'mail'), email), undefined);
  const tenantId = reg.tenant_id;
  await api('PATCH', `/api/v1/tenants/${tenantId}`, admin, { plan: 'enterprise' });
  await api('PATCH', `/api/v1/tenants/${tenantId}/config`, admin, { incident_threshold: 1 });
  const token = await login(email, password);
  const envs = [
    (await api<{ environment_id: string }>('POST', '/api/v1/environments', token, { name: 'Harbour', type: 'port' }))
      .environment_id,
    (await api<{ environment_id: string }>('POST', '/api/v1/environments', token, { name: 'Depot', type: 'port' }))
      .environment_id,
  ];
  const zoneId = (
    await api<{ zone_id: string }>('POST', '/api/v1/zones', token, {
      environment_id: envs[0],
      name: 'Quay',
      geofence: { type: 'Circle', center: [10.75, 59.91], radius_m: 300 },
    })
  ).zone_id;
  const batches: unknown[][] = [];
  for (let b = 0; b < size / 100; b++) {
    batches.push(
      Array.from({ length: 100 }, (_, i) => ({
        type: TYPES[(b + i) % TYPES.length],
        environment_id: envs[i % 2],
        location: i % 3 === 0 ? { lat: 59.91, lon: 10.75 } : { lat: 59.95, lon: 10.8 },
        occurred_at: new Date(now - Math.floor(Math.random() * 30 * DAY)).toISOString(),
      })),
    );
  }
  for (let i = 0; i < batches.length; i += 4)
    await Promise.all(batches.slice(i, i + 4).map((events) => api('POST', '/api/v1/events/batch', token, { events })));
  for (let i = 0; i < 50; i++) {
    const incident = await api<{ incident_id: string }>('POST', '/api/v1/incidents', token, {
      title: `Bench ${i}`,
      severity: 'high',
    });
    if (i % 2 === 0)
      await api('PATCH', `/api/v1/incidents/${incident.incident_id}/respond`, token, { status: 'acknowledged' });
  }
  return { size, tenantId, token, zoneId };
}

/** Items of a partition with sort keys `prefix + lo` .. `prefix + hi`, counted (a consistent COUNT Query). */
const count = (pk: string, prefix: string, lo = '', hi = '\uffff') =>
  queryCount({ pk, skBetween: [`${prefix}${lo}`, `${prefix}${hi}`], consistent: true });

async function waitCounted(t: Tenant): Promise<void> {
  const deadline = Date.now() + 30 * 60_000;
  while ((await count(`T#${t.tenantId}#COUNTED`, 'EV#')) < t.size) {
    if (Date.now() > deadline) throw new Error(`tenant ${t.size}: not counted within 30 minutes`);
    await new Promise((r) => setTimeout(r, 1000));
  }
  // The incidents' last changes are right behind.
  await new Promise((r) => setTimeout(r, 2000));
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(p * values.length) - 1)]!;
const sum = (t: Tally, field: 'calls' | 'readUnits') => Object.values(t).reduce((s, o) => s + o[field], 0);
const ops = (t: Tally) =>
  Object.entries(t)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([op, o]) => `${o.calls} ${op}`)
    .join(', ');

interface Row {
  events: number;
  query: string;
  medianMs: number;
  p95Ms: number;
  calls: string;
  readUnits: number;
  counterItems: number;
}

/** Resolves once nothing has reached DynamoDB for `quietMs` (the workers are done). */
async function quiet(quietMs = 3000): Promise<void> {
  const m = meter!;
  const calls = () => Object.values(m.snapshot()).reduce((s, o) => s + o.calls, 0);
  for (;;) {
    await m.settle();
    m.reset();
    await new Promise((r) => setTimeout(r, quietMs));
    await m.settle();
    if (calls() === 0) return;
  }
}

interface Query {
  label: string;
  path: string;
  params: (t: Tenant) => Record<string, string>;
  /** The counter items in the key ranges it reads. */
  items: (t: Tenant) => Promise<number>;
}

/** One request's calls per tenant (the system quiet), then REPEAT timed requests, the tenants taking turns. */
async function measure(q: Query, tenants: readonly Tenant[]): Promise<Row[]> {
  const m = meter!;
  const rows = new Map<Tenant, { tally: Tally; times: number[] }>();
  for (const t of tenants) {
    for (let i = 0; i < 3; i++) await api('GET', q.path, t.token, undefined, q.params(t));
    await quiet(500);
    await api('GET', q.path, t.token, undefined, q.params(t));
    await m.settle();
    rows.set(t, { tally: m.snapshot(), times: [] });
  }
  // Timed with the proxy forwarding only (it prices nothing, so adds one local hop and no reads).
  m.passthrough = true;
  try {
    for (let i = 0; i < REPEAT; i++) {
      for (const t of tenants) {
        await api('GET', q.path, t.token, undefined, q.params(t));
        rows.get(t)!.times.push(lastHandlerMs);
      }
    }
  } finally {
    m.passthrough = false;
  }
  const out: Row[] = [];
  for (const t of tenants) {
    const { tally, times } = rows.get(t)!;
    out.push({
      events: t.size,
      query: q.label,
      medianMs: percentile(times, 0.5),
      p95Ms: percentile(times, 0.95),
      calls: ops(tally),
      readUnits: sum(tally, 'readUnits'),
      counterItems: await q.items(t),
    });
  }
  return out;
}

try {
  const admin = await login(ADMIN.email, ADMIN.password);
  const now = Date.now();
  const tenants: Tenant[] = [];
  for (const size of SIZES) {
    const started = Date.now();
    const t = await makeTenant(size, admin, now);
    await waitCounted(t);
    tenants.push(t);
    console.error(`tenant with ${size} events ingested and counted in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  await quiet();
  // The window of each tenant's default query (now, 30 days back): the key ranges the queries read.
  const ranges = new Map<Tenant, { fromDay: string; toDay: string; fromHour: string; toHour: string }>();
  for (const t of tenants) {
    const w = await api<{ from_date: string; to_date: string }>('GET', '/api/v1/analytics/threats', t.token);
    const last = Date.parse(w.to_date) - 3_600_000;
    ranges.set(t, {
      fromDay: w.from_date.slice(0, 10),
      toDay: new Date(last).toISOString().slice(0, 10),
      fromHour: w.from_date.slice(0, 13),
      toHour: new Date(last).toISOString().slice(0, 13),
    });
  }
  const stats = (t: Tenant) => `T#${t.tenantId}#STATS`;
  const days = (t: Tenant, scope: string) =>
    count(stats(t), `EV#${scope}#`, ranges.get(t)!.fromDay, ranges.get(t)!.toDay);
  const queries: Query[] = [
    {
      label: 'threats, 30 days by day',
      path: '/api/v1/analytics/threats',
      params: () => ({}),
      items: (t) => days(t, 'all'),
    },
    {
      label: 'threats, 30 days by hour, one zone',
      path: '/api/v1/analytics/threats',
      params: (t) => ({ aggregation: 'hour', zone_id: t.zoneId }),
      items: (t) => days(t, `zone#${t.zoneId}`),
    },
    {
      label: 'summary, 30 days',
      path: '/api/v1/analytics/summary',
      params: (t) => ({ tenant_id: t.tenantId }),
      items: async (t) =>
        (await days(t, 'all')) + (await count(stats(t), 'INC#', ranges.get(t)!.fromHour, ranges.get(t)!.toHour)),
    },
  ];
  // Every query a few times first: the handlers' modules and DynamoDB Local's JVM (which has just
  // taken the ingest) settle before anything is timed.
  for (let i = 0; i < 10; i++)
    for (const q of queries) for (const t of tenants) await api('GET', q.path, t.token, undefined, q.params(t));
  const rows: Row[] = [];
  for (const q of queries) rows.push(...(await measure(q, tenants)));
  console.log("\nAnalytics queries by events stored (handler time; one request's DynamoDB calls):\n");
  console.log('| events | query | median ms | p95 ms | DynamoDB calls | read units | counter items read |');
  console.log('|---:|---|---:|---:|---|---:|---:|');
  for (const r of rows)
    console.log(
      `| ${r.events} | ${r.query} | ${r.medianMs.toFixed(1)} | ${r.p95Ms.toFixed(1)} | ${r.calls} | ${r.readUnits} | ${r.counterItems} |`,
    );
  console.log(
    "\nThe calls include the caller's authentication (a BatchGetItem; the series reads the zone with it). Read units follow the counter items' size, which grows with the (type, hour) pairs that had events and stops at the number of types x 24 per day: not with the events themselves.",
  );
} finally {
  await server.close();
  await meter?.close();
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
