/**
 * Request-cost benchmark (a script, not a test): runs the local stack with a metering proxy in
 * front of DynamoDB Local (shared/local/dynamodb-meter.ts) and prints, for each kind of request,
 * the DynamoDB calls by operation and the read and write units they would be billed; then the
 * modelled cost of a million single-event ingests and of a million events sent in batches of 100,
 * with the prices it assumes; then HTTP ingest throughput against raw BatchWriteItem into the same
 * DynamoDB Local, in the same run.
 *
 * Two phases. The metered one counts calls and units through the proxy. The timed one (the same
 * script in a child process, `BENCH_PHASE=timed`, started once the first has stopped its stack)
 * runs a fresh stack straight against DynamoDB Local, as Lambda talks straight to DynamoDB: the
 * handlers' times (what Lambda bills) and the throughput of both sides are taken without the
 * proxy's hop, which runs in the same process and would be charged to the service.
 *
 *   npx tsx bin/bench-request-cost.ts
 *
 * Options (env): BENCH_REPEAT (metered requests per kind, default 5), BENCH_TIMED (timed requests
 * per kind, default 25), BENCH_BUSY (events in the
 * environment's last hour before the "busy" measurement, default 500), BENCH_BATCHES (batches of
 * 100 per throughput round, default 40), BENCH_ROUNDS (default 5), BENCH_CONCURRENCY (default 8).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { confirmationLinkMailed } from './local-mail.js';
import { medianTally } from './metered-stack.js';
import { seedVessels } from './bench-vessels.js';
import type { DynamoDbMeter, Tally } from '../shared/local/dynamodb-meter.js';
import type { TenantId } from '../shared/vocabulary/tenant.js';

const TIMED_PHASE = process.env.BENCH_PHASE === 'timed';
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
const TIMED = Number(process.env.BENCH_TIMED ?? 25);
const BUSY = Number(process.env.BENCH_BUSY ?? 500);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 40);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

/** us-east-1 list prices (USD), as of 2026: what the model multiplies. */
const PRICES = {
  apiGatewayRestPerMillion: 3.5,
  eventBridgePerMillionEvents: 1.0,
  dynamoWritePerMillionUnits: 0.625,
  dynamoReadPerMillionUnits: 0.125,
  lambdaPerMillionRequests: 0.2,
  /** arm64, per GB-second. */
  lambdaPerGbSecond: 0.0000133334,
};
/** The stream publisher (shared/workers.ts): 256 MB; a full batch of 100 records assumed to take 200 ms. */
const PUBLISHER = { memoryGb: 0.25, batchRecords: 100, batchSeconds: 0.2 };

// Request logs would cost the server time the benchmark measures; set before anything reads the config.
process.env.LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
const { startLocalStack } = await import('../shared/local/stack.js');
const { startDynamoDbMeter } = await import('../shared/local/dynamodb-meter.js');
const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-cost-'));
let meter: DynamoDbMeter | undefined;
// No workers: only the request's own calls reach the meter while it is measured.
const stack = await startLocalStack({
  dataDir,
  persist: false,
  workers: false,
  ...(TIMED_PHASE
    ? {}
    : {
        dynamodbFront: async (endpoint: string) => {
          meter = await startDynamoDbMeter(endpoint);
          return meter;
        },
      }),
});
const { ensureLocalAdmin, localAdminFromEnv } = await import('../shared/local/admin.js');
const { startHttpServer } = await import('../shared/local/http-server.js');
const { ROUTES } = await import('../shared/routes/index.js');
const { DEFAULT_MEMORY_MB } = await import('../lib/route-plan.js');
// The local adapters (the audit seal's key among them): with no workers, nothing else installs them.
await (await import('../shared/local/compose.js')).installLocalAdapters();
await ensureLocalAdmin(localAdminFromEnv());
const server = await startHttpServer({ port: 0 });
const baseUrl = server.url;

const ADMIN = {
  email: process.env.GATEHOUSE_ADMIN_EMAIL ?? 'admin@gatehouse.local',
  password: process.env.GATEHOUSE_ADMIN_PASSWORD ?? 'Gatehouse-admin-1',
};

async function api<T = unknown>(
  method: string,
  path: string,
  credential: { token?: string; key?: string } | undefined,
  body?: unknown,
): Promise<T> {
  const res = await fetch(new URL(path, baseUrl), {
    method,
    headers: {
      'content-type': 'application/json',
      ...(credential?.token ? { authorization: `Bearer ${credential.token}` } : {}),
      ...(credential?.key ? { 'x-api-key': credential.key } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  lastHandlerMs = Number(/handler;dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? NaN);
  return (text ? JSON.parse(text) : null) as T;
}

/** The last answer's handler time (the local server's Server-Timing header): what Lambda bills. */
let lastHandlerMs = NaN;

/** A kind of request the benchmark prices and times. */
interface Kind {
  label: string;
  routeId: string;
  /** Events it stores (0: not an ingest). */
  events: number;
  send: () => Promise<unknown>;
}

interface Measured {
  label: string;
  routeId: string;
  events: number;
  tally: Tally;
  ms: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Sends REPEAT requests one at a time through the meter, and keeps the median request's tally. */
async function tallyOf(send: () => Promise<unknown>): Promise<Tally> {
  const m = meter!;
  const tallies: Tally[] = [];
  for (let i = 0; i < REPEAT; i++) {
    await m.settle();
    m.reset();
    await send();
    await m.settle();
    tallies.push(m.snapshot());
  }
  return medianTally(tallies);
}

/** The handler's median time over TIMED requests sent one at a time, after three unmeasured. */
async function timeOf(send: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 3; i++) await send();
  const times: number[] = [];
  for (let i = 0; i < TIMED; i++) {
    await send();
    times.push(lastHandlerMs);
  }
  return median(times);
}

const sum = (t: Tally, field: 'calls' | 'readUnits' | 'writeUnits') =>
  Object.values(t).reduce((s, o) => s + o[field], 0);
const describe = (t: Tally) =>
  Object.entries(t)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([op, o]) => `${o.calls} ${op}`)
    .join(', ');

/** USD per million events sent as `m`. */
function costPerMillionEvents(m: Measured) {
  const memoryGb = (ROUTES.find((r) => r.id === m.routeId)?.memoryMb ?? DEFAULT_MEMORY_MB) / 1024;
  const perRequest = {
    apiGateway: PRICES.apiGatewayRestPerMillion,
    lambda: PRICES.lambdaPerMillionRequests + memoryGb * (m.ms / 1000) * PRICES.lambdaPerGbSecond * 1e6,
    dynamoWrites: sum(m.tally, 'writeUnits') * PRICES.dynamoWritePerMillionUnits,
    dynamoReads: sum(m.tally, 'readUnits') * PRICES.dynamoReadPerMillionUnits,
  };
  const perEvent = {
    eventBridge: PRICES.eventBridgePerMillionEvents,
    publisher:
      (PRICES.lambdaPerMillionRequests + PUBLISHER.memoryGb * PUBLISHER.batchSeconds * PRICES.lambdaPerGbSecond * 1e6) /
      PUBLISHER.batchRecords,
  };
  const parts = {
    ...Object.fromEntries(Object.entries(perRequest).map(([k, v]) => [k, v / m.events])),
    ...perEvent,
  };
  return { parts, total: Object.values(parts).reduce((s, v) => s + v, 0) };
}

interface Throughput {
  httpRate: number;
  rawRate: number;
}

/** What the timed phase reports to the metered one. */
interface TimedReport {
  ms: Record<string, number>;
  throughput: Throughput;
}

/** Runs this script again as the timed phase, in a child process, and reads its report. */
function runTimedPhase(): Promise<TimedReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!], {
      env: { ...process.env, BENCH_PHASE: 'timed' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('BENCH_TIMED '));
      if (code !== 0 || !line) reject(new Error(`the timed phase failed (exit ${code}): ${out.slice(-2000)}`));
      else resolve(JSON.parse(line.slice('BENCH_TIMED '.length)) as TimedReport);
    });
  });
}

let metered: { results: Measured[]; streams: { label: string; tally: Tally }[] } | undefined;
let timedReport: TimedReport | undefined;
try {
  const admin = {
    token: (await api<{ access_token: string }>('POST', '/api/v1/portal/login', undefined, ADMIN)).access_token,
  };
  const tag = Date.now().toString(36);
  const email = `cost-${tag}@bench.example`;
  const password = `Cost-${tag}-Pass1`;
  const org = await api<{ tenant_id: TenantId }>('POST', '/api/v1/portal/register', undefined, {
    email,
    password,
    organization_name: `Cost ${tag}`,
  });
  await api('POST', await confirmationLinkMailed(join(dataDir, 'mail'), email), undefined);
  // A plan with a rate (1,000 a minute, more than the benchmark sends): its counter is written on every call.
  await api('PATCH', `/api/v1/tenants/${org.tenant_id}`, admin, { plan: 'pro' });
  const user = {
    token: (await api<{ access_token: string }>('POST', '/api/v1/portal/login', undefined, { email, password }))
      .access_token,
  };
  const key = {
    key: (
      await api<{ api_key: string }>('POST', '/api/v1/portal/api-keys', user, { name: 'cost bench', role: 'OPERATOR' })
    ).api_key,
  };

  const site = async (name: string) => {
    const env = await api<{ environment_id: string }>('POST', '/api/v1/environments', user, { name, type: 'port' });
    await api('POST', '/api/v1/zones', user, {
      environment_id: env.environment_id,
      name: 'Quay',
      security_level: 4,
      geofence: { type: 'Circle', center: [10.75, 59.91], radius_m: 500 },
    });
    const sensor = await api<{ sensor_id: string }>('POST', '/api/v1/sensors', user, {
      environment_id: env.environment_id,
      name: 'Radar',
      type: 'radar',
      location: { lat: 59.9101, lon: 10.7501 },
    });
    return { env, sensor };
  };
  const quiet = await site('Quiet port');
  const busy = await site('Busy port');
  const zonesMadeAt = Date.now();
  const event = (sensorId: string, i: number) => ({
    type: 'motion.detected',
    sensor_id: sensorId,
    payload: { seq: i, speed_mps: 1.4 },
  });
  const batch = (sensorId: string, from: number) => ({
    events: Array.from({ length: 100 }, (_, i) => event(sensorId, from + i)),
  });
  for (let i = 0; i < BUSY; i += 100) await api('POST', '/api/v1/events/batch', user, batch(busy.sensor.sensor_id, i));
  // Measured in the steady state: a function keeps zones read once their last change has settled
  // (shared/domain/sites/zone-cache.ts); a request within that moment of a change reads them (1 Query more).
  const { SETTLE_MS } = await import('../shared/domain/sites/index.js');
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, zonesMadeAt + SETTLE_MS - Date.now())));

  // Vessels: a cable, AIS traffic (the tests' three vessels, as sentences), tracked as the stream
  // worker would (the benchmark runs no workers), and a developer key.
  const { ON_CABLE, VESSELS } = await import('../test/support/ais.js');
  const { traffic } = await seedVessels(
    (method, path, body) => api(method, path, user, body),
    baseUrl,
    user.token,
    org.tenant_id,
  );
  const aisBatch = () => ({
    events: traffic.slice(0, 100).map((e) => ({ ...e, occurred_at: new Date().toISOString() })),
  });
  const developer = {
    token: (await api<{ api_key: string }>('POST', '/v1/auth/keys', user, { email, tier: 'pro' })).api_key,
  };

  let seq = 0;
  const kinds: Kind[] = [
    {
      label: 'GET one environment (bearer)',
      routeId: 'environments.get',
      events: 0,
      send: () => api('GET', `/api/v1/environments/${quiet.env.environment_id}`, user),
    },
    {
      label: 'GET one environment (API key)',
      routeId: 'environments.get',
      events: 0,
      send: () => api('GET', `/api/v1/environments/${quiet.env.environment_id}`, key),
    },
    {
      label: 'POST one event, quiet environment',
      routeId: 'events.create',
      events: 1,
      send: () => api('POST', '/api/v1/events', user, event(quiet.sensor.sensor_id, seq++)),
    },
    {
      label: `POST one event, busy (${BUSY}+ in the hour)`,
      routeId: 'events.create',
      events: 1,
      send: () => api('POST', '/api/v1/events', user, event(busy.sensor.sensor_id, seq++)),
    },
    {
      label: 'POST a batch of 100 events',
      routeId: 'events.batch',
      events: 100,
      send: () => api('POST', '/api/v1/events/batch', user, batch(quiet.sensor.sensor_id, (seq += 100))),
    },
    {
      label: 'GET /events env+type, limit=20',
      routeId: 'events.list',
      events: 0,
      send: () =>
        api(
          'GET',
          `/api/v1/events?tenant_id=${org.tenant_id}&environment_id=${busy.env.environment_id}&type=motion.detected&limit=20`,
          user,
        ),
    },
    {
      label: 'GET /events limit=20',
      routeId: 'events.list',
      events: 0,
      send: () => api('GET', `/api/v1/events?tenant_id=${org.tenant_id}&limit=20`, user),
    },
    {
      label: 'GET /events processed=false, limit=20',
      routeId: 'events.list',
      events: 0,
      send: () => api('GET', `/api/v1/events?tenant_id=${org.tenant_id}&processed=false&limit=20`, user),
    },
    {
      label: 'POST a batch of 100 AIS sentences',
      routeId: 'events.batch',
      events: 100,
      send: () => api('POST', '/api/v1/events/batch', user, aisBatch()),
    },
    {
      label: 'GET a vessel profile (24 h, 32 positions)',
      routeId: 'vessels.get',
      events: 0,
      send: () => api('GET', `/api/v1/vessels/${VESSELS.dark.mmsi}`, user),
    },
    {
      label: 'GET dark and loitering vessels',
      routeId: 'vessels.dark',
      events: 0,
      send: () => api('GET', '/api/v1/vessels/dark', user),
    },
    {
      label: 'GET a track (24 h)',
      routeId: 'vessels.track',
      events: 0,
      send: () => api('GET', `/api/v1/vessels/${VESSELS.loiterer.mmsi}/track`, user),
    },
    {
      label: 'GET cable risk on the cable',
      routeId: 'vessels.cableRisk',
      events: 0,
      send: () => api('GET', `/api/v1/cable-risk?lat=${ON_CABLE.lat}&lon=${ON_CABLE.lon}`, user),
    },
    {
      label: 'GET /v1/usage (pro key)',
      routeId: 'developer.usage',
      events: 0,
      send: () => api('GET', '/v1/usage', developer),
    },
    {
      label: 'GET /v1/vessel-profile (pro key)',
      routeId: 'developer.vesselProfile',
      events: 0,
      send: () => api('GET', `/v1/vessel-profile?mmsi=${VESSELS.loiterer.mmsi}`, developer),
    },
    {
      label: 'GET a threat score (an IP)',
      routeId: 'threatScore.get',
      events: 0,
      send: () => api('GET', '/api/v1/threat-score?target=8.8.8.8&target_type=ip', user),
    },
    {
      label: 'GET a threat score (a vessel)',
      routeId: 'threatScore.get',
      events: 0,
      send: () =>
        api('GET', `/api/v1/threat-score?target=${VESSELS.loiterer.mmsi}&target_type=mmsi&context=maritime`, user),
    },
    {
      label: 'GET /v1/threat-score (pro key, a location)',
      routeId: 'developer.threatScore',
      events: 0,
      send: () =>
        api(
          'GET',
          `/v1/threat-score?target=${ON_CABLE.lat},${ON_CABLE.lon}&target_type=location&context=infrastructure`,
          developer,
        ),
    },
    {
      label: 'GET /audit-logs limit=20',
      routeId: 'auditLogs.list',
      events: 0,
      send: () => api('GET', `/api/v1/audit-logs/${org.tenant_id}?limit=20`, user),
    },
    {
      label: 'GET /audit-logs action=zone.created',
      routeId: 'auditLogs.list',
      events: 0,
      send: () => api('GET', `/api/v1/audit-logs/${org.tenant_id}?action=zone.created&limit=20`, user),
    },
  ];

  if (TIMED_PHASE) {
    const ms: Record<string, number> = {};
    for (const kind of kinds) ms[kind.label] = await timeOf(kind.send);
    const throughput = await measureThroughput(
      user.token,
      () => batch(quiet.sensor.sensor_id, (seq += 100)),
      org.tenant_id,
    );
    process.stdout.write(`BENCH_TIMED ${JSON.stringify({ ms, throughput } satisfies TimedReport)}\n`);
  } else {
    const results: Measured[] = [];
    for (const kind of kinds) {
      const tally = await tallyOf(kind.send);
      if (process.env.BENCH_DEBUG) console.log(kind.label, describe(tally));
      results.push({ label: kind.label, routeId: kind.routeId, events: kind.events, tally, ms: NaN });
    }
    // An idle live stream: what its polls cost (one every 2 s), for a tenant and for the platform.
    const idleStream = async (token: string, query: string) => {
      const m = meter!;
      const controller = new AbortController();
      const res = await fetch(new URL(`/api/v1/events/stream${query}`, baseUrl), {
        headers: { authorization: `Bearer ${token}` },
        signal: controller.signal,
      });
      const reader = res.body!.getReader();
      await reader.read(); // the retry frame: the stream is open
      await m.settle();
      m.reset();
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      await m.settle();
      const tally = m.snapshot();
      controller.abort();
      await reader.cancel().catch(() => undefined);
      return tally;
    };
    const streams = [
      {
        label: 'idle stream of one tenant, per poll',
        tally: await idleStream(user.token, `?tenant_id=${org.tenant_id}`),
      },
      { label: 'every-tenant stream, 1 active lately, per poll', tally: await idleStream(admin.token, '') },
    ];
    metered = { results, streams };
  }
} finally {
  await server.close();
  await meter?.close();
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

// The timed phase runs alone: this process's stack is stopped first.
if (metered) {
  timedReport = await runTimedPhase();
  report(
    metered.results.map((r) => ({ ...r, ms: timedReport!.ms[r.label]! })),
    metered.streams,
    timedReport.throughput,
  );
}

/**
 * HTTP batches against raw BatchWriteItem of the same items, same endpoint, same width, in
 * alternating rounds after a warm-up round of each.
 */
async function measureThroughput(token: string, batchBody: () => unknown, tenantId: TenantId): Promise<Throughput> {
  const { BatchWriteCommand } = await import('@aws-sdk/lib-dynamodb');
  const { db, TABLE } = await import('../shared/db/client.js');
  const pool = async (n: number, task: (i: number) => Promise<unknown>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < n) await task(next++);
      }),
    );
  };
  const [sample] = await api<{ event_id: string }[]>('GET', `/api/v1/events?tenant_id=${tenantId}&limit=1`, { token });
  const { getEvent, eventItem } = await import('../shared/db/events.js');
  const { content_hash: contentHash, ...stored } = (await getEvent(tenantId, sample!.event_id))!;
  const { newTimeId } = await import('../shared/ids.js');
  const { withSequence } = await import('../shared/db/event-sequence.js');
  // Raw items carry what ingest's do, the store sequence's index key included (numbers far above
  // the tenant's own).
  let rawSeq = 1e9;
  // node:http with kept-alive connections: a lean sender (fetch's streams cost this machine's CPU
  // as much as a part of the service does). A round's bodies are made before it is timed (a
  // client's work, not the service's); a sender needs no more of the answer than its status.
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const target = new URL('/api/v1/events/batch', baseUrl);
  const post = (body: Buffer) =>
    new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': body.length,
            authorization: `Bearer ${token}`,
          },
        },
        (res) => {
          res.on('data', () => undefined);
          res.on('end', () =>
            res.statusCode === 201 ? resolve() : reject(new Error(`batch answered ${res.statusCode}`)),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const httpRound = () => {
    const bodies = Array.from({ length: BATCHES }, () => Buffer.from(JSON.stringify(batchBody())));
    return () => pool(BATCHES, (i) => post(bodies[i]!));
  };
  // A raw writer makes its items (ids and all) and writes each 100 the way ingest does: four
  // BatchWriteItems of 25 at once.
  const rawRound = () => () =>
    pool(BATCHES, () =>
      Promise.all(
        Array.from({ length: 4 }, () => {
          const items = Array.from({ length: 25 }, () =>
            withSequence(
              eventItem({ event: { ...stored, event_id: newTimeId() }, contentHash: contentHash ?? '', expiresAt: 0 }),
              ++rawSeq,
              Date.now(),
            ),
          );
          return db.send(
            new BatchWriteCommand({ RequestItems: { [TABLE]: items.map((Item) => ({ PutRequest: { Item } })) } }),
          );
        }),
      ),
    );
  const timed = async (prepare: () => () => Promise<void>) => {
    const round = prepare();
    const t = performance.now();
    await round();
    return (performance.now() - t) / 1000;
  };
  // DynamoDB Local (a JVM) speeds up as it warms: one round of each first, then rounds taken in
  // turn, so neither side gets the warmer half of the run.
  await httpRound()();
  await rawRound()();
  let httpSeconds = 0;
  let rawSeconds = 0;
  for (let round = 0; round < ROUNDS; round++) {
    httpSeconds += await timed(httpRound);
    rawSeconds += await timed(rawRound);
  }
  agent.destroy();
  return { httpRate: (ROUNDS * BATCHES * 100) / httpSeconds, rawRate: (ROUNDS * BATCHES * 100) / rawSeconds };
}

function report(results: Measured[], streams: { label: string; tally: Tally }[], throughput: Throughput) {
  const byLabel = (label: string) => results.find((r) => r.label.startsWith(label))!;
  console.log(
    `request cost against DynamoDB Local: calls and units through a metering proxy (median of ${REPEAT} requests each); ms: the handler's time without the proxy (median of ${TIMED}, in a second stack)\n`,
  );
  console.log(
    `${'request'.padEnd(40)} ${'calls'.padStart(5)} ${'RRU'.padStart(6)} ${'WRU'.padStart(6)}  ${'ms'.padStart(5)}  calls by operation`,
  );
  for (const r of results) {
    console.log(
      `${r.label.padEnd(40)} ${String(sum(r.tally, 'calls')).padStart(5)} ${sum(r.tally, 'readUnits').toFixed(1).padStart(6)} ${sum(r.tally, 'writeUnits').toFixed(0).padStart(6)}  ${r.ms.toFixed(1).padStart(5)}  ${describe(r.tally)}`,
    );
  }
  for (const { label, tally } of streams) {
    // 10 s of polling every 2 s: 5 polls.
    const polls = 5;
    console.log(
      `${label.padEnd(40)} ${(sum(tally, 'calls') / polls).toFixed(1).padStart(5)} ${(sum(tally, 'readUnits') / polls).toFixed(1).padStart(6)} ${'0'.padStart(6)}         ${describe(tally)} in ${polls} polls`,
    );
  }
  const batched = byLabel('POST a batch of 100');
  console.log(
    `\nwrite units per event in a batch of 100 (everything the request wrote, per event): ${(sum(batched.tally, 'writeUnits') / 100).toFixed(2)}`,
  );

  console.log('\nmodelled cost per million events (USD), prices assumed:');
  console.log(
    `  API Gateway REST $${PRICES.apiGatewayRestPerMillion}/M requests; EventBridge $${PRICES.eventBridgePerMillionEvents}/M events;`,
  );
  console.log(
    `  DynamoDB on-demand $${PRICES.dynamoWritePerMillionUnits}/M WRU, $${PRICES.dynamoReadPerMillionUnits}/M RRU; Lambda arm64 $${PRICES.lambdaPerMillionRequests}/M requests + $${PRICES.lambdaPerGbSecond}/GB-s`,
  );
  console.log(
    `  (route memory from the route table, duration = the handler's measured time (Server-Timing); stream publisher ${PUBLISHER.memoryGb * 1024} MB, ${PUBLISHER.batchSeconds * 1000} ms per ${PUBLISHER.batchRecords} records)`,
  );
  for (const [label, m, target] of [
    ['single-event ingests, quiet', byLabel('POST one event, quiet'), 8],
    ['single-event ingests, busy', byLabel('POST one event, busy'), 8],
    ['events in batches of 100', batched, 4],
  ] as const) {
    const { parts, total } = costPerMillionEvents(m);
    const detail = Object.entries(parts)
      .map(([k, v]) => `${k} ${v.toFixed(2)}`)
      .join(', ');
    console.log(`  ${label.padEnd(30)} $${total.toFixed(2).padStart(6)}  (target $${target.toFixed(2)})  ${detail}`);
  }
  console.log(
    `\ningest throughput (${ROUNDS} rounds of ${BATCHES} batches of 100 each way, after a warm-up round, concurrency ${CONCURRENCY}, straight to DynamoDB Local):`,
  );
  console.log(
    `  HTTP POST /events/batch ${throughput.httpRate.toFixed(0)} events/s; raw BatchWriteItem ${throughput.rawRate.toFixed(0)} events/s; ratio ${(throughput.httpRate / throughput.rawRate).toFixed(2)} (target 0.80)`,
  );
}
