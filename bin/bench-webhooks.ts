/**
 * Webhook delivery benchmark (a script, not a test), against a local stack with its workers on:
 *
 * 1. DynamoDB calls and units of one dispatch and one delivery attempt, through the metering proxy
 *    (shared/local/dynamodb-meter.ts), with the pipeline otherwise idle;
 * 2. latency from committing an incident to its delivery arriving at a receiver on loopback,
 *    through the whole local pipeline (stream poller, bus, dispatch queue, deliverer), for
 *    BENCH_INCIDENTS incidents (default 50) opened BENCH_PARALLEL at a time (default 5).
 *
 *   npx tsx bin/bench-webhooks.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDbMeter, Tally } from '../shared/local/dynamodb-meter.js';

const INCIDENTS = Number(process.env.BENCH_INCIDENTS ?? 50);
const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 5);

process.env.OUTBOUND_ALLOW_LOOPBACK = 'true';
const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-webhooks-'));
const { startLocalStack } = await import('../shared/local/stack.js');
const { startDynamoDbMeter } = await import('../shared/local/dynamodb-meter.js');
let meter: DynamoDbMeter | undefined;
const stack = await startLocalStack({
  dataDir,
  persist: false,
  schedules: false,
  dynamodbFront: async (endpoint) => {
    meter = await startDynamoDbMeter(endpoint);
    return meter;
  },
});

/** Arrival times by incident id. */
const arrived = new Map<string, number>();
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    const id = (JSON.parse(body) as { data?: { incident_id?: string } }).data?.incident_id;
    if (id && !arrived.has(id)) arrived.set(id, performance.now());
    res.writeHead(200).end('ok');
  });
});
await new Promise<void>((ready) => receiver.listen(0, '127.0.0.1', ready));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const summary = (t: Tally) =>
  Object.entries(t)
    .map(([op, x]) => `${op} ${x.calls} (${x.readUnits} RRU, ${x.writeUnits} WRU)`)
    .join(', ') || 'none';
const calls = (t: Tally) => Object.values(t).reduce((n, x) => n + x.calls, 0);

try {
  const { installLocalAdapters } = await import('../shared/local/compose.js');
  await installLocalAdapters();
  const { systemActor } = await import('../shared/domain/actor.js');
  const { createTenant } = await import('../shared/domain/accounts/index.js');
  const { createWebhook } = await import('../shared/domain/webhooks/index.js');
  const { openIncident } = await import('../shared/domain/incidents/index.js');
  const { dispatchMessage } = await import('../shared/domain/webhooks/index.js');
  const { attemptDelivery } = await import('../shared/domain/webhooks/index.js');
  const { useQueues } = await import('../shared/adapters/queue.js');
  const { LocalQueues, localQueues } = await import('../shared/local/queue.js');
  const { newTimeId } = await import('../shared/ids.js');
  const { systemTenant } = await import('../shared/vocabulary/tenant.js');

  const system = systemActor('bench-webhooks');
  const tenant = await createTenant(system, { name: 'Webhook bench' });
  const tenantId = systemTenant(tenant.tenant_id);
  await createWebhook(system, tenantId, { url: receiverUrl, event_types: ['incident.created'] });

  // 1. Calls per step, on a queue of this script's own (the pipeline's queues stay untouched).
  const own = new LocalQueues();
  useQueues(own);
  const message = {
    messageId: newTimeId(),
    tenantId,
    type: 'incident.created',
    time: new Date().toISOString(),
    detail: { incident_id: newTimeId(), tenant_id: tenantId, title: 'Bench', severity: 'high' },
  };
  meter!.reset();
  await dispatchMessage(message, new Date().toISOString());
  const dispatchTally = meter!.snapshot();
  const [job] = own.messages('webhook-deliveries');
  meter!.reset();
  const outcome = await attemptDelivery(JSON.parse(job!.body) as Parameters<typeof attemptDelivery>[0]);
  const deliverTally = meter!.snapshot();
  console.log(`dispatch (1 matching subscription): ${calls(dispatchTally)} DynamoDB calls: ${summary(dispatchTally)}`);
  console.log(`delivery attempt (${outcome.kind}): ${calls(deliverTally)} DynamoDB calls: ${summary(deliverTally)}`);
  useQueues(localQueues());

  // 2. End to end, through the running pipeline.
  const committed = new Map<string, number>();
  const actor = {
    kind: 'user' as const,
    principal: { userId: 'bench', tenantId, role: 'OPERATOR' as const, via: 'jwt' as const, requestsPerMinute: null },
    requestId: 'bench',
    sourceIp: '127.0.0.1',
  };
  for (let i = 0; i < INCIDENTS; i += PARALLEL) {
    await Promise.all(
      Array.from({ length: Math.min(PARALLEL, INCIDENTS - i) }, async (_, j) => {
        const incident = await openIncident(actor, tenantId, { title: `Bench ${i + j}`, severity: 'high' });
        committed.set(incident.incident_id, performance.now());
      }),
    );
  }
  const deadline = Date.now() + 60_000;
  // (The metered attempt above arrived too: wait for these incidents' own deliveries.)
  while ([...committed.keys()].some((id) => !arrived.has(id)) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  const latencies = [...committed]
    .flatMap(([id, at]) => (arrived.has(id) ? [arrived.get(id)! - at] : []))
    .sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
  console.log(
    `end to end: ${latencies.length}/${INCIDENTS} delivered; commit to receiver p50 ${pct(50).toFixed(0)} ms, p95 ${pct(95).toFixed(0)} ms, max ${latencies.at(-1)!.toFixed(0)} ms`,
  );
} finally {
  receiver.close();
  await stack.stop();
  await meter?.close();
  rmSync(dataDir, { recursive: true, force: true });
}
