/**
 * Request-cost benchmark (a script, not a test): runs the local stack with a metering proxy in
 * front of DynamoDB Local (shared/local/dynamodb-meter.ts) and prints, for each kind of request,
 * the DynamoDB calls by operation and the read and write units they would be billed; then the
 * modelled cost of a million single-event ingests and of a million events sent in batches of 100,
 * with the prices it assumes; then HTTP ingest throughput against raw BatchWriteItem into the same
 * DynamoDB Local, in the same run.
 *
 *   npx tsx bin/bench-request-cost.ts
 *
 * Options (env): BENCH_REPEAT (measured requests per kind, default 5), BENCH_BUSY (events in the
 * environment's last hour before the "busy" measurement, default 500), BENCH_BATCHES (batches of
 * 100 per throughput round, default 40), BENCH_ROUNDS (default 5), BENCH_CONCURRENCY (default 8).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDbMeter, Tally } from '../shared/local/dynamodb-meter.js';

const REPEAT = Number(process.env.BENCH_REPEAT ?? 5);
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
let meter!: DynamoDbMeter;
// No workers: only the request's own calls reach the meter while it is measured.
const stack = await startLocalStack({
  dataDir,
  persist: false,
  workers: false,
  dynamodbFront: async (endpoint) => {
    meter = await startDynamoDbMeter(endpoint);
    return meter.url;
  },
});
const { ensureLocalAdmin, localAdminFromEnv } = await import('../shared/local/admin.js');
const { startHttpServer } = await import('../shared/local/http-server.js');
const { ROUTES } = await import('../shared/routes/index.js');
const { DEFAULT_MEMORY_MB } = await import('../lib/route-plan.js');
await ensureLocalAdmin(localAdminFromEnv());
const server = await startHttpServer({ port: 0 });
const baseUrl = server.url;

const ADMIN = { email: process.env.GATEHOUSE_ADMIN_EMAIL ?? 'admin@gatehouse.local', password: process.env.GATEHOUSE_ADMIN_PASSWORD ?? 'Gatehouse-admin-1' };

async function api(method: string, path: string, credential: { token?: string; key?: string } | undefined, body?: unknown) {
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
  return text ? JSON.parse(text) : null;
}

/** The last answer's handler time (the local server's Server-Timing header): what Lambda bills. */
let lastHandlerMs = NaN;

interface Measured {
  label: string;
  routeId: string;
  events: number;
  tally: Tally;
  ms: number;
}

/**
 * Runs `send` REPEAT times, one at a time, metered, and keeps the median request's tally; then
 * REPEAT times more with the meter only forwarding (its pricing reads would slow the writes) for
 * the median latency.
 */
async function measure(label: string, routeId: string, events: number, send: () => Promise<unknown>): Promise<Measured> {
  const tallies: Tally[] = [];
  for (let i = 0; i < REPEAT; i++) {
    await meter.settle();
    meter.reset();
    await send();
    await meter.settle();
    tallies.push(meter.snapshot());
  }
  if (process.env.BENCH_DEBUG) console.log(label, tallies.map(describe));
  const times: number[] = [];
  meter.passthrough = true;
  for (let i = 0; i < REPEAT; i++) {
    await send();
    times.push(lastHandlerMs);
  }
  meter.passthrough = false;
  const total = (t: Tally) => Object.values(t).reduce((s, o) => s + o.calls * 1000 + o.writeUnits + o.readUnits, 0);
  tallies.sort((a, b) => total(a) - total(b));
  times.sort((a, b) => a - b);
  return { label, routeId, events, tally: tallies[Math.floor(tallies.length / 2)]!, ms: times[Math.floor(times.length / 2)]! };
}

const sum = (t: Tally, field: 'calls' | 'readUnits' | 'writeUnits') => Object.values(t).reduce((s, o) => s + o[field], 0);
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
    publisher: (PRICES.lambdaPerMillionRequests + PUBLISHER.memoryGb * PUBLISHER.batchSeconds * PRICES.lambdaPerGbSecond * 1e6) / PUBLISHER.batchRecords,
  };
  const parts = {
    ...Object.fromEntries(Object.entries(perRequest).map(([k, v]) => [k, v / m.events])),
    ...perEvent,
  };
  return { parts, total: Object.values(parts).reduce((s, v) => s + v, 0) };
}

try {
  const admin = { token: (await api('POST', '/api/v1/portal/login', undefined, ADMIN)).access_token as string };
  const tag = Date.now().toString(36);
  const email = `cost-${tag}@bench.example`;
  const password = `Cost-${tag}-Pass1`;
  const org = await api('POST', '/api/v1/portal/register', undefined, { email, password, organization_name: `Cost ${tag}` });
  // A plan with a rate (1,000 a minute, more than the benchmark sends): its counter is written on every call.
  await api('PATCH', `/api/v1/tenants/${org.tenant_id}`, admin, { plan: 'pro' });
  const user = { token: (await api('POST', '/api/v1/portal/login', undefined, { email, password })).access_token as string };
  const key = { key: (await api('POST', '/api/v1/portal/api-keys', user, { name: 'cost bench', role: 'OPERATOR' })).api_key as string };

  const site = async (name: string) => {
    const env = await api('POST', '/api/v1/environments', user, { name, type: 'port' });
    await api('POST', '/api/v1/zones', user, { environment_id: env.environment_id, name: 'Quay', security_level: 4, geofence: { type: 'Circle', center: [10.75, 59.91], radius_m: 500 } });
    const sensor = await api('POST', '/api/v1/sensors', user, { environment_id: env.environment_id, name: 'Radar', type: 'radar', location: { lat: 59.9101, lon: 10.7501 } });
    return { env, sensor };
  };
  const quiet = await site('Quiet port');
  const busy = await site('Busy port');
  const event = (sensorId: string, i: number) => ({ type: 'motion.detected', sensor_id: sensorId, payload: { seq: i, speed_mps: 1.4 } });
  const batch = (sensorId: string, from: number) => ({ events: Array.from({ length: 100 }, (_, i) => event(sensorId, from + i)) });
  for (let i = 0; i < BUSY; i += 100) await api('POST', '/api/v1/events/batch', user, batch(busy.sensor.sensor_id, i));

  let seq = 0;
  const results: Measured[] = [];
  results.push(await measure('GET one environment (bearer)', 'environments.get', 0, () => api('GET', `/api/v1/environments/${quiet.env.environment_id}`, user)));
  results.push(await measure('GET one environment (API key)', 'environments.get', 0, () => api('GET', `/api/v1/environments/${quiet.env.environment_id}`, key)));
  const single = await measure('POST one event, quiet environment', 'events.create', 1, () => api('POST', '/api/v1/events', user, event(quiet.sensor.sensor_id, seq++)));
  results.push(single);
  const singleBusy = await measure(`POST one event, busy (${BUSY}+ in the hour)`, 'events.create', 1, () => api('POST', '/api/v1/events', user, event(busy.sensor.sensor_id, seq++)));
  results.push(singleBusy);
  const batched = await measure('POST a batch of 100 events', 'events.batch', 100, () => api('POST', '/api/v1/events/batch', user, batch(quiet.sensor.sensor_id, (seq += 100))));
  results.push(batched);
  results.push(
    await measure('GET /events env+type, limit=20', 'events.list', 0, () =>
      api('GET', `/api/v1/events?tenant_id=${org.tenant_id}&environment_id=${busy.env.environment_id}&type=motion.detected&limit=20`, user),
    ),
  );
  results.push(await measure('GET /events limit=20', 'events.list', 0, () => api('GET', `/api/v1/events?tenant_id=${org.tenant_id}&limit=20`, user)));
  results.push(await measure('GET /events processed=false, limit=20', 'events.list', 0, () => api('GET', `/api/v1/events?tenant_id=${org.tenant_id}&processed=false&limit=20`, user)));

  // An idle live stream: what its polls cost (one every 2 s), for a tenant and for the platform.
  const idleStream = async (token: string, query: string) => {
    const controller = new AbortController();
    const res = await fetch(new URL(`/api/v1/events/stream${query}`, baseUrl), { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read(); // the retry frame: the stream is open
    await meter.settle();
    meter.reset();
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    await meter.settle();
    const tally = meter.snapshot();
    controller.abort();
    await reader.cancel().catch(() => undefined);
    return tally;
  };
  const streams = [
    { label: 'idle stream of one tenant, per poll', tally: await idleStream(user.token, `?tenant_id=${org.tenant_id}`) },
    { label: 'every-tenant stream, 1 active lately, per poll', tally: await idleStream(admin.token, '') },
  ];

  console.log(`request cost against DynamoDB Local through a metering proxy (median of ${REPEAT} requests each; ms: the handler's time, median of ${REPEAT} more, unmetered)\n`);
  console.log(`${'request'.padEnd(40)} ${'calls'.padStart(5)} ${'RRU'.padStart(6)} ${'WRU'.padStart(6)}  ${'ms'.padStart(5)}  calls by operation`);
  for (const r of results) {
    console.log(
      `${r.label.padEnd(40)} ${String(sum(r.tally, 'calls')).padStart(5)} ${sum(r.tally, 'readUnits').toFixed(1).padStart(6)} ${sum(r.tally, 'writeUnits').toFixed(0).padStart(6)}  ${r.ms.toFixed(0).padStart(5)}  ${describe(r.tally)}`,
    );
  }
  for (const { label, tally } of streams) {
    // 10 s of polling every 2 s: 5 polls.
    const polls = 5;
    console.log(`${label.padEnd(40)} ${(sum(tally, 'calls') / polls).toFixed(1).padStart(5)} ${(sum(tally, 'readUnits') / polls).toFixed(1).padStart(6)} ${'0'.padStart(6)}         ${describe(tally)} in ${polls} polls`);
  }
  const batchWrites = sum(batched.tally, 'writeUnits') / 100;
  console.log(`\nwrite units per event in a batch of 100 (everything the request wrote, per event): ${batchWrites.toFixed(2)}`);

  console.log('\nmodelled cost per million events (USD), prices assumed:');
  console.log(`  API Gateway REST $${PRICES.apiGatewayRestPerMillion}/M requests; EventBridge $${PRICES.eventBridgePerMillionEvents}/M events;`);
  console.log(`  DynamoDB on-demand $${PRICES.dynamoWritePerMillionUnits}/M WRU, $${PRICES.dynamoReadPerMillionUnits}/M RRU; Lambda arm64 $${PRICES.lambdaPerMillionRequests}/M requests + $${PRICES.lambdaPerGbSecond}/GB-s`);
  console.log(`  (route memory from the route table, duration = the handler's measured time (Server-Timing); stream publisher ${PUBLISHER.memoryGb * 1024} MB, ${PUBLISHER.batchSeconds * 1000} ms per ${PUBLISHER.batchRecords} records)`);
  for (const [label, m, target] of [
    ['single-event ingests, quiet', single, 8],
    ['single-event ingests, busy', singleBusy, 8],
    ['events in batches of 100', batched, 4],
  ] as const) {
    const { parts, total } = costPerMillionEvents(m);
    const detail = Object.entries(parts)
      .map(([k, v]) => `${k} ${v.toFixed(2)}`)
      .join(', ');
    console.log(`  ${label.padEnd(30)} $${total.toFixed(2).padStart(6)}  (target $${target.toFixed(2)})  ${detail}`);
  }

  // Throughput: HTTP batches against raw BatchWriteItem of the same items, same endpoint, same width.
  meter.passthrough = true;
  const { BatchWriteCommand } = await import('@aws-sdk/lib-dynamodb');
  const { db, TABLE } = await import('../shared/db/client.js');
  const pool = async (n: number, task: (i: number) => Promise<unknown>) => {
    let next = 0;
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) await task(next++);
    }));
  };
  const [sample] = await api('GET', `/api/v1/events?tenant_id=${org.tenant_id}&limit=1`, user);
  const { getEvent, eventItem } = await import('../shared/db/events.js');
  const { content_hash: contentHash, ...stored } = (await getEvent(org.tenant_id, sample.event_id))!;
  const { newTimeId } = await import('../shared/ids.js');
  // A round's request bodies are made before it is timed (a client's work, not the service's); a
  // sender needs no more of the answer than its status.
  let seqFrom = 200_000;
  // node:http with kept-alive connections: a lean sender (fetch's streams cost this machine's CPU
  // as much as a part of the service does).
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const target = new URL('/api/v1/events/batch', baseUrl);
  const post = (body: Buffer) =>
    new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        { agent, host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length, authorization: `Bearer ${user.token}` } },
        (res) => {
          res.on('data', () => undefined);
          res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`batch answered ${res.statusCode}`))));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const httpRound = () => {
    const bodies = Array.from({ length: BATCHES }, () => Buffer.from(JSON.stringify(batch(quiet.sensor.sensor_id, (seqFrom += 100)))));
    return () => pool(BATCHES, (i) => post(bodies[i]!));
  };
  // A raw writer makes its items (ids and all) and writes each 100 the way ingest does: four
  // BatchWriteItems of 25 at once.
  const rawRound = () => () =>
    pool(BATCHES, () =>
      Promise.all(
        Array.from({ length: 4 }, () => {
          const items = Array.from({ length: 25 }, () => eventItem({ event: { ...stored, event_id: newTimeId() }, contentHash: contentHash ?? '', expiresAt: 0 }));
          return db.send(new BatchWriteCommand({ RequestItems: { [TABLE]: items.map((Item) => ({ PutRequest: { Item } })) } }));
        }),
      ),
    );
  const timed = async (prepare: () => () => Promise<void>) => {
    const round = prepare();
    const t = performance.now();
    const cpu = process.cpuUsage();
    await round();
    if (process.env.BENCH_DEBUG) {
      const used = process.cpuUsage(cpu);
      console.log(`  node cpu ${((used.user + used.system) / 1000).toFixed(0)} ms in ${(performance.now() - t).toFixed(0)} ms`);
    }
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
  const httpRate = (ROUNDS * BATCHES * 100) / httpSeconds;
  const rawRate = (ROUNDS * BATCHES * 100) / rawSeconds;
  console.log(`\ningest throughput (${ROUNDS} rounds of ${BATCHES} batches of 100 each way, after a warm-up round, concurrency ${CONCURRENCY}, both through the proxy without metering):`);
  console.log(`  HTTP POST /events/batch ${httpRate.toFixed(0)} events/s; raw BatchWriteItem ${rawRate.toFixed(0)} events/s; ratio ${(httpRate / rawRate).toFixed(2)} (target 0.80)`);
} finally {
  await server.close();
  await meter.close();
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
