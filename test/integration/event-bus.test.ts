/**
 * The fan-out locally, end to end: an EVENT item and an OUTBOX item written to the table reach
 * the in-process event bus through the table's stream and the very `publish-events` handler,
 * each once, with the source, detail-type and detail docs/events.md promises.
 *
 * The run's stack (test/support/global-setup.ts) polls the stream in the vitest main process and
 * appends every published event to LOCAL_EVENT_BUS_LOG: the first tests read that file. The
 * subscriber tests start a poller in this process too, as `npm start` runs one beside its
 * subscribers.
 */
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { existsSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eventItem, writeAll, type StoredEvent } from '../../shared/db/events.js';
import { outboxPut } from '../../shared/db/outbox.js';
import { transactWrite } from '../../shared/db/transact.js';
import { newTimeId, now } from '../../shared/ids.js';
import { localEventBus, type BusEvent } from '../../shared/local/event-bus.js';
import { bareTableInput, ensureTable } from '../../shared/local/provision.js';
import { startStreamPoller, type StreamPoller } from '../../shared/local/stream-poller.js';
import { isTableStream, WORKERS } from '../../shared/workers.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';
import { PIPELINE_WAIT_MS } from '../support/pipeline.js';

const env = inject('localEnv');
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

function storedEvent(tenantId: string, type: string): StoredEvent {
  return {
    event_id: newTimeId(),
    tenant_id: systemTenant(tenantId),
    environment_id: null,
    sensor_id: null,
    type,
    source: 'sensor',
    occurred_at: now(),
    received_at: now(),
    location: { lat: 52.37, lon: 4.9 },
    severity: 'high',
    description: 'north fence',
    payload: { gate: 4 },
    matched_zone_ids: [],
    matched_signatures: [],
    threat_score: 0.8,
    threat_factors: { type: { value: 0.9, weight: 0.4 } },
    processed: false,
    processed_at: null,
    incident_id: null,
  };
}

const write = (event: StoredEvent) =>
  writeAll([eventItem({ event, contentHash: 'h', expiresAt: Math.floor(Date.now() / 1000) + 3600 })]);

/** Events the run's stack published, from its JSON Lines record. */
function published(file: string): BusEvent[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as BusEvent);
}

async function waitFor<T>(probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the run's stack publishes new items to the local bus", () => {
  const file = env.LOCAL_EVENT_BUS_LOG!;
  const tenant = randomUUID();

  it('an ingested event and an outbox message arrive, each once, as documented', async () => {
    const event = storedEvent(tenant, 'perimeter.breach');
    await write(event);
    await transactWrite([
      outboxPut({
        tenantId: tenant,
        source: 'gatehouse.incidents',
        detailType: 'incident.created',
        detail: { incident_id: 'inc-1', severity: 'high' },
      }),
    ]);
    const mine = () => published(file).filter((e) => e.detail.tenant_id === tenant);
    // A bound for a stuck poller, not a speed target.
    await waitFor(() => (mine().length >= 2 ? true : undefined), PIPELINE_WAIT_MS);
    // Time for a duplicate to show up, if there were one.
    await pause(750);
    const events = mine();
    expect(events).toHaveLength(2);

    const [fromEvent] = events.filter((e) => e.source === 'gatehouse.events');
    expect(fromEvent).toMatchObject({
      version: '0',
      'detail-type': 'perimeter.breach',
      account: '000000000000',
      resources: [],
    });
    expect(fromEvent!.detail).toEqual(event);
    expect(fromEvent!.time).toBe(event.received_at.replace(/\.\d{3}Z$/, 'Z'));

    const [fromOutbox] = events.filter((e) => e.source === 'gatehouse.incidents');
    expect(fromOutbox!['detail-type']).toBe('incident.created');
    expect(fromOutbox!.detail).toEqual({
      incident_id: 'inc-1',
      severity: 'high',
      tenant_id: tenant,
      message_id: expect.any(String),
    });
  });

  it('rewriting a stored event (a retried ingest, a change) publishes nothing more; other items nothing at all', async () => {
    const other = randomUUID();
    const event = storedEvent(other, 'sensor.alert');
    await write(event);
    await waitFor(
      () => (published(file).some((e) => e.detail.tenant_id === other) ? true : undefined),
      PIPELINE_WAIT_MS,
    );
    await write(event); // identical: no stream record
    await write({ ...event, processed: true, processed_at: now() }); // a MODIFY
    await writeAll([{ PK: `T#${other}`, SK: 'CONFIG', entity: 'TENANT_CONFIG', tenant_id: other }]);
    await pause(1000);
    expect(published(file).filter((e) => e.detail.tenant_id === other)).toHaveLength(1);
  });
});

describe('subscribers of the in-process bus', () => {
  let poller: StreamPoller;
  beforeAll(async () => {
    // This process's own poller, from now on: the run's stack already publishes what came before.
    poller = await startStreamPoller({
      region: env.AWS_REGION!,
      endpoint: env.DYNAMODB_ENDPOINT!,
      credentials,
      tableName: env.TABLE_NAME!,
      workers: WORKERS.filter(isTableStream),
      startAt: 'LATEST',
    });
  });
  afterAll(() => poller?.stop());

  it('get what their pattern matches: per tenant, per type', async () => {
    const tenant = randomUUID();
    const neighbour = randomUUID();
    const got = { tenant: [] as BusEvent[], breaches: [] as BusEvent[], incidents: [] as BusEvent[] };
    const unsubscribe = [
      localEventBus().subscribe('tenant', { detail: { tenant_id: [tenant] } }, (e) => void got.tenant.push(e)),
      localEventBus().subscribe(
        'breaches',
        {
          source: ['gatehouse.events'],
          'detail-type': ['perimeter.breach'],
          detail: { tenant_id: [tenant, neighbour] },
        },
        (e) => void got.breaches.push(e),
      ),
      localEventBus().subscribe(
        'incidents',
        { source: ['gatehouse.incidents'], detail: { tenant_id: [tenant, neighbour] } },
        (e) => void got.incidents.push(e),
      ),
    ];
    try {
      const breach = storedEvent(tenant, 'perimeter.breach');
      const reading = storedEvent(tenant, 'sensor.reading');
      const neighbours = storedEvent(neighbour, 'perimeter.breach');
      await write(breach);
      await write(reading);
      await write(neighbours);
      await transactWrite([
        outboxPut({
          tenantId: tenant,
          source: 'gatehouse.incidents',
          detailType: 'incident.created',
          detail: { incident_id: 'i-2' },
        }),
      ]);
      await waitFor(
        () => (got.tenant.length >= 3 && got.breaches.length >= 2 && got.incidents.length >= 1 ? true : undefined),
        PIPELINE_WAIT_MS,
      );
      await pause(750);
      await localEventBus().idle();
      expect(got.tenant.map((e) => e['detail-type']).sort()).toEqual([
        'incident.created',
        'perimeter.breach',
        'sensor.reading',
      ]);
      expect(got.breaches.map((e) => e.detail.event_id).sort()).toEqual([breach.event_id, neighbours.event_id].sort());
      expect(got.incidents.map((e) => e.detail)).toEqual([
        { incident_id: 'i-2', tenant_id: tenant, message_id: expect.any(String) },
      ]);
      expect(poller.deadLetters).toEqual([]);
    } finally {
      for (const stop of unsubscribe) stop();
    }
  });
});

describe('local provisioning', () => {
  it('gives an existing table without a stream its NEW_IMAGE stream', async () => {
    const client = new DynamoDBClient({ region: env.AWS_REGION!, endpoint: env.DYNAMODB_ENDPOINT!, credentials });
    const tableName = `gatehouse-nostream-${randomUUID().slice(0, 8)}`;
    try {
      await client.send(new CreateTableCommand(bareTableInput(tableName)));
      const result = await ensureTable(client, tableName);
      expect(result.created).toBe(false);
      expect(result.stream.new).toBe(true);
      const table = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table!;
      expect(table.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_IMAGE' });
      expect(result.stream.arn).toBe(table.LatestStreamArn);
      // Found as it is the next time.
      expect(await ensureTable(client, tableName)).toEqual({
        created: false,
        stream: { arn: table.LatestStreamArn, new: false },
      });
    } finally {
      client.destroy();
    }
  });
});
