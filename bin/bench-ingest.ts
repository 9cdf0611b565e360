/**
 * Ingest benchmark (a script, not a test): prints events per second for single and batch requests
 * against a local server, and the DynamoDB write units an event costs (table and indexes).
 *
 *   npx tsx bin/bench-ingest.ts                      # starts its own local stack and server
 *   GATEHOUSE_BASE_URL=http://127.0.0.1:3000 npx tsx bin/bench-ingest.ts   # against `npm start`
 *
 * Options (env): BENCH_SINGLE (events sent one by one, default 400), BENCH_CONCURRENCY (default 8),
 * BENCH_BATCHES (100-event batches, default 40).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SINGLE = Number(process.env.BENCH_SINGLE ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 40);
const ADMIN = { email: process.env.GATEHOUSE_ADMIN_EMAIL ?? 'admin@gatehouse.local', password: process.env.GATEHOUSE_ADMIN_PASSWORD ?? 'Gatehouse-admin-1' };

let baseUrl = process.env.GATEHOUSE_BASE_URL;
let cleanup = async () => {};
if (!baseUrl) {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
  const { startLocalStack } = await import('../shared/local/stack.js');
  const { ensureLocalAdmin, localAdminFromEnv } = await import('../shared/local/admin.js');
  const { startHttpServer } = await import('../shared/local/http-server.js');
  const stack = await startLocalStack({ dataDir, persist: false });
  await ensureLocalAdmin(localAdminFromEnv());
  const server = await startHttpServer({ port: 0 });
  baseUrl = server.url;
  cleanup = async () => {
    await server.close();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

async function api(method: string, path: string, token: string | undefined, body?: unknown) {
  const res = await fetch(new URL(path, baseUrl), {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : null;
}

async function pool<T>(tasks: (() => Promise<T>)[], width: number): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < tasks.length) await tasks[next++]!();
  }));
}

try {
  const admin = (await api('POST', '/api/v1/portal/login', undefined, ADMIN)).access_token as string;
  const tag = Date.now().toString(36);
  const email = `bench-${tag}@bench.example`;
  const password = `Bench-${tag}-Pass1`;
  const org = await api('POST', '/api/v1/portal/register', undefined, { email, password, organization_name: `Bench ${tag}` });
  // No plan rate limit in the way of a benchmark.
  await api('PATCH', `/api/v1/tenants/${org.tenant_id}`, admin, { plan: 'enterprise' });
  const token = (await api('POST', '/api/v1/portal/login', undefined, { email, password })).access_token as string;
  const env = await api('POST', '/api/v1/environments', token, { name: 'Bench port', type: 'port' });
  await api('POST', '/api/v1/zones', token, { environment_id: env.environment_id, name: 'Quay', security_level: 4, geofence: { type: 'Circle', center: [10.75, 59.91], radius_m: 500 } });
  const sensor = await api('POST', '/api/v1/sensors', token, { environment_id: env.environment_id, name: 'Radar', type: 'radar', location: { lat: 59.9101, lon: 10.7501 } });
  const event = (i: number) => ({ type: 'motion.detected', sensor_id: sensor.sensor_id, payload: { seq: i, speed_mps: 1.4 } });

  const t0 = performance.now();
  await pool(Array.from({ length: SINGLE }, (_, i) => () => api('POST', '/api/v1/events', token, event(i))), CONCURRENCY);
  const singleSeconds = (performance.now() - t0) / 1000;

  const t1 = performance.now();
  await pool(
    Array.from({ length: BATCHES }, (_, b) => () => api('POST', '/api/v1/events/batch', token, { events: Array.from({ length: 100 }, (_, i) => event(b * 100 + i)) })),
    CONCURRENCY,
  );
  const batchSeconds = (performance.now() - t1) / 1000;

  // Write units: store copies of a typical event the way ingest does and read what DynamoDB charged.
  const { eventItem, writeAll, getEvent } = await import('../shared/db/events.js');
  const [sample] = await api('GET', '/api/v1/events?limit=1', token);
  const stored = await getEvent(org.tenant_id, sample.event_id);
  const { newTimeId } = await import('../shared/ids.js');
  const copies = Array.from({ length: 100 }, () => eventItem({ event: { ...stored!, event_id: newTimeId() }, contentHash: stored!.content_hash ?? '', expiresAt: 0 }));
  const { writeUnits } = await writeAll(copies);

  const line = (label: string, events: number, seconds: number) =>
    console.log(`${label.padEnd(34)} ${String(events).padStart(6)} events in ${seconds.toFixed(2).padStart(6)} s = ${(events / seconds).toFixed(0).padStart(6)} events/s`);
  console.log(`ingest benchmark against ${baseUrl} (concurrency ${CONCURRENCY})`);
  line('single POST /api/v1/events', SINGLE, singleSeconds);
  line('batch POST /api/v1/events/batch x100', BATCHES * 100, batchSeconds);
  console.log(
    writeUnits > 0
      ? `write units per event: ${(writeUnits / copies.length).toFixed(2)} (table + GSI1/GSI2/GSI3 copies; item ${JSON.stringify(copies[0]).length} bytes)`
      : `write units per event: not reported by this DynamoDB (DynamoDB Local reports none); item ${JSON.stringify(copies[0]).length} bytes -> ` +
          `${Math.ceil(JSON.stringify(copies[0]).length / 1024)} WCU on the table and as much on each of the 3 index copies = ${4 * Math.ceil(JSON.stringify(copies[0]).length / 1024)} WCU`,
  );
} finally {
  await cleanup();
}
