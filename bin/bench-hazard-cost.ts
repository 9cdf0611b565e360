/**
 * DynamoDB calls of the hazard connectors and the risk route (a script, not a test;
 * docs/connectors.md): runs the local stack with the metering proxy in front of DynamoDB Local
 * (shared/local/dynamodb-meter.ts), as bin/bench-telemetry-cost.ts does, polls GDACS, USGS and NWS
 * captures (test/fixtures/feeds) from a local HTTP server, and prints the calls by operation of a
 * first poll, a second poll, and `GET /api/v1/environmental-risk`.
 *
 *   npx tsx bin/bench-hazard-cost.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDbMeter, Tally } from '../shared/local/dynamodb-meter.js';
import { feedFixture, startFeedServer } from '../test/support/feed-server.js';

process.env.LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
// The captures are served from this machine.
process.env.OUTBOUND_ALLOW_LOOPBACK = 'true';
const { startLocalStack } = await import('../shared/local/stack.js');
const { startDynamoDbMeter } = await import('../shared/local/dynamodb-meter.js');
const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-hazard-cost-'));
let meter: DynamoDbMeter | undefined;
const stack = await startLocalStack({
  dataDir,
  persist: false,
  workers: false,
  dynamodbFront: async (endpoint: string) => {
    meter = await startDynamoDbMeter(endpoint);
    return meter.url;
  },
});
const { ensureLocalAdmin, localAdminFromEnv } = await import('../shared/local/admin.js');
const { startHttpServer } = await import('../shared/local/http-server.js');
await ensureLocalAdmin(localAdminFromEnv());
const server = await startHttpServer({ port: 0 });
const feeds = await startFeedServer({
  '/gdacs.json': feedFixture('gdacs/eventsbyarea-pakistan.2026-10-08.json'),
  '/quakes.geojson': feedFixture('usgs-quakes/all_day.2022-09-29.trimmed.geojson'),
  '/nws.xml': feedFixture('nws-alerts/cap-atom-us.2017-09-02.trimmed.xml'),
});

async function api(method: string, path: string, token: string | undefined, body?: unknown) {
  const res = await fetch(new URL(path, server.url), {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

async function tallyOf(send: () => Promise<unknown>): Promise<Tally> {
  await meter!.settle();
  meter!.reset();
  await send();
  await meter!.settle();
  return meter!.snapshot();
}

const show = (label: string, t: Tally) => {
  const calls = Object.entries(t).map(([op, o]) => `${op} ${o.calls}`);
  const total = Object.values(t).reduce((s, o) => s + o.calls, 0);
  const units = Object.values(t).reduce((s, o) => ({ r: s.r + o.readUnits, w: s.w + o.writeUnits }), { r: 0, w: 0 });
  console.log(`${label}: ${total} calls (${calls.join(', ')}); ${units.r.toFixed(1)} RRU, ${units.w.toFixed(1)} WRU`);
};

try {
  const tag = Date.now().toString(36);
  const email = `haz-${tag}@bench.example`;
  const password = `Haz-${tag}-Pass1`;
  await api('POST', '/api/v1/portal/register', undefined, { email, password, organization_name: `Hazards ${tag}` });
  const token = (await api('POST', '/api/v1/portal/login', undefined, { email, password })).access_token as string;
  // 40 km north of GDACS EQ 1569499 (current) and 30 km north of USGS nn00848153.
  await api('POST', '/api/v1/environments', token, { name: 'Faizabad depot', type: 'site', location: { lat: 36.97073, lon: 71.0216 } });
  await api('POST', '/api/v1/environments', token, { name: 'Mina substation', type: 'substation', location: { lat: 38.45069, lon: -117.936 } });
  for (const [feed, path] of [['gdacs', '/gdacs.json'], ['usgs-quakes', '/quakes.geojson'], ['nws-alerts', '/nws.xml']] as const) {
    const id = (await api('POST', '/api/v1/integrations', token, { name: feed, kind: 'feed', config: { feed, url: `${feeds.base}${path}` } })).integration_id as string;
    let report: { records: unknown; alerts_raised: number } | undefined;
    const poll = async () => (report = await api('POST', `/api/v1/connectors/${id}/poll`, token));
    show(`${feed} first poll`, await tallyOf(poll));
    console.log(`  ${JSON.stringify(report!.records)}, ${report!.alerts_raised} alerts`);
    show(`${feed} second poll`, await tallyOf(poll));
  }
  show('GET /api/v1/environmental-risk', await tallyOf(() => api('GET', '/api/v1/environmental-risk?days=30', token)));
} finally {
  await feeds.close();
  await server.close();
  await meter?.close();
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
