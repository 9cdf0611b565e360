/**
 * The EventBridge fan-out without EventBridge (it has no local counterpart): the stream worker
 * `publish-events` against a mocked EventBridgeClient (aws-sdk-client-mock). What an item becomes
 * on the bus, PutEvents calls of at most 10 entries, per-entry failures retried with backoff, and
 * what still fails reported as exactly those records' batch item failures.
 */
import {
  EventBridgeClient,
  PutEventsCommand,
  type PutEventsCommandInput,
  type PutEventsResultEntry,
} from '@aws-sdk/client-eventbridge';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';

// The worker's own bus is EventBridge here: set before shared/config.ts loads (imports are hoisted).
const saved = vi.hoisted(() => {
  const before = process.env.EVENT_BUS_MODE;
  process.env.EVENT_BUS_MODE = 'aws';
  return before;
});

import { handler, publishStreamRecords } from '../../functions/workers/publish-events.js';
import { awsEventBus } from '../../shared/adapters/event-bus.js';
import { config } from '../../shared/config.js';
import { eventItem, type StoredEvent } from '../../shared/db/events.js';
import { outboxItem, outboxPut, OUTBOX_RETENTION_DAYS } from '../../shared/db/outbox.js';
import {
  busEntryOf,
  chunkEntries,
  entrySize,
  EVENTS_SOURCE,
  fitEntry,
  MAX_BYTES_PER_CALL,
  publishEntries,
  UnpublishableItemError,
  type BusEntry,
} from '../../shared/domain/events/publish.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';

afterAll(() => {
  if (saved === undefined) delete process.env.EVENT_BUS_MODE;
  else process.env.EVENT_BUS_MODE = saved;
});

const eventBridge = mockClient(EventBridgeClient);
beforeEach(() => eventBridge.reset());
// The stub is on the SDK's client class, which the next file of this worker shares (fresh-file.ts).
afterAll(() => eventBridge.restore());

const TENANT = systemTenant('0198f0a0-0000-7000-8000-0000000000aa');
const noWait = { sleep: () => Promise.resolve() };

function storedEvent(n: number, extra: Partial<StoredEvent> = {}): StoredEvent {
  return {
    event_id: `0198f0a0-0000-7000-8000-${String(n).padStart(12, '0')}`,
    tenant_id: TENANT,
    environment_id: null,
    sensor_id: null,
    type: 'perimeter.breach',
    source: 'sensor',
    occurred_at: '2026-11-21T10:00:00.000Z',
    received_at: '2026-11-21T10:00:01.000Z',
    location: { lat: 51.9, lon: 4.1 },
    severity: 'high',
    description: `breach ${n}`,
    payload: { gate: n },
    matched_zone_ids: [],
    matched_signatures: [],
    threat_score: 0.7,
    threat_factors: null,
    processed: false,
    processed_at: null,
    incident_id: null,
    ...extra,
  };
}

const eventRow = (n: number, extra: Partial<StoredEvent> = {}) =>
  eventItem({ event: storedEvent(n, extra), contentHash: 'hash', expiresAt: 2_000_000_000 });

/** An event item without a type (the compact item has it in its type index key, GSI2PK, only). */
function untypedRow(): Record<string, unknown> {
  const { GSI2PK: _pk, GSI2SK: _sk, ...item } = eventRow(1);
  return { ...item, type: null };
}

/** A stream record as Lambda delivers it for a new item. */
function record(
  seq: number,
  item: Record<string, unknown>,
  eventName: DynamoDBRecord['eventName'] = 'INSERT',
): DynamoDBRecord {
  return {
    eventID: `id-${seq}`,
    eventName,
    eventSource: 'aws:dynamodb',
    eventSourceARN: 'arn:aws:dynamodb:us-east-1:123456789012:table/t/stream/2026',
    dynamodb: {
      SequenceNumber: String(seq).padStart(21, '0'),
      NewImage: marshall(item, { removeUndefinedValues: true }) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'],
      StreamViewType: 'NEW_IMAGE',
    },
  };
}

const seqOf = (r: DynamoDBRecord) => r.dynamodb!.SequenceNumber!;
const ok = (n: number): PutEventsResultEntry[] => Array.from({ length: n }, (_, i) => ({ EventId: `eb-${i}` }));
/** The entries of each PutEvents call made so far. */
const calls = () => eventBridge.commandCalls(PutEventsCommand).map((c) => c.args[0].input.Entries!);
const bus = () => awsEventBus('gatehouse-test', new EventBridgeClient({ region: 'us-east-1' }));

/** Answers PutEvents like EventBridge, failing the entries `fails` picks with `code`. */
function answerWith(fails: (detail: Record<string, unknown>, call: number) => boolean, code = 'ThrottlingException') {
  let call = 0;
  eventBridge.on(PutEventsCommand).callsFake((input: PutEventsCommandInput) => {
    call++;
    const entries = (input.Entries ?? []).map((e) =>
      fails(JSON.parse(e.Detail!) as Record<string, unknown>, call)
        ? { ErrorCode: code, ErrorMessage: 'Rate exceeded' }
        : { EventId: 'eb' },
    );
    return { FailedEntryCount: entries.filter((e) => 'ErrorCode' in e).length, Entries: entries };
  });
}

describe('what an item becomes on the bus', () => {
  it('a stored event: source gatehouse.events, detail-type = its type, detail = the public event', () => {
    const entry = busEntryOf(eventRow(1));
    expect(entry.source).toBe(EVENTS_SOURCE);
    expect(entry.source).toBe('gatehouse.events');
    expect(entry.detailType).toBe('perimeter.breach');
    expect(entry.detail).toEqual(storedEvent(1));
    // Keys, hashes and TTL stay in the table.
    for (const internal of ['PK', 'SK', 'GSI1PK', 'GSI2PK', 'GSI3PK', 'entity', 'content_hash', 'expires_at']) {
      expect(entry.detail).not.toHaveProperty(internal);
    }
    expect(entry.detail.tenant_id).toBe(TENANT);
    expect(entry.time).toBe('2026-11-21T10:00:01.000Z');
  });

  it('an outbox message: its own source and detail-type; detail with the tenant and a stable message id', () => {
    const item = outboxItem(
      {
        tenantId: TENANT,
        source: 'gatehouse.incidents',
        detailType: 'incident.created',
        detail: { incident_id: 'i-1', tenant_id: 'someone-else' },
      },
      { messageId: 'm-1', createdAt: '2026-11-21T11:00:00.000Z' },
    );
    expect(busEntryOf(item)).toEqual({
      source: 'gatehouse.incidents',
      detailType: 'incident.created',
      // The partition's tenant wins over a wrong one in the detail.
      detail: { incident_id: 'i-1', tenant_id: TENANT, message_id: 'm-1' },
      time: '2026-11-21T11:00:00.000Z',
    });
  });

  it('anything else cannot be published', () => {
    expect(() => busEntryOf({ entity: 'TENANT', tenant_id: TENANT })).toThrow(UnpublishableItemError);
    const spoof = {
      ...outboxItem({ tenantId: TENANT, source: 'gatehouse.incidents', detailType: 'incident.created', detail: {} }),
      source: 'gatehouse.events',
    };
    expect(() => busEntryOf(spoof)).toThrow(/not gatehouse.<feature>/);
    expect(() => busEntryOf(untypedRow())).toThrow(UnpublishableItemError);
  });
});

describe('outbox items', () => {
  it('outboxPut is a conditional put of a new OUTBOX item under the tenant, expiring after the retention', () => {
    const put = outboxPut({
      tenantId: TENANT,
      source: 'gatehouse.incidents',
      detailType: 'incident.created',
      detail: { incident_id: 'i-1' },
    });
    expect(put.Put?.ConditionExpression).toBe('attribute_not_exists(PK)');
    const item = put.Put!.Item as Record<string, unknown>;
    expect(item).toMatchObject({
      PK: `T#${TENANT}#OUTBOX`,
      SK: item.outbox_id,
      entity: 'OUTBOX',
      tenant_id: TENANT,
      source: 'gatehouse.incidents',
      detail_type: 'incident.created',
      detail: { incident_id: 'i-1' },
    });
    const created = Date.parse(item.created_at as string) / 1000;
    expect(item.expires_at).toBe(Math.floor(created) + OUTBOX_RETENTION_DAYS * 86_400);
    // Time-ordered ids: a second message sorts after the first.
    const next = outboxPut({
      tenantId: TENANT,
      source: 'gatehouse.incidents',
      detailType: 'incident.created',
      detail: {},
    });
    expect(String((next.Put!.Item as Record<string, unknown>).SK) > String(item.SK)).toBe(true);
  });

  it('refuses names integrators could not rely on', () => {
    const base = { tenantId: TENANT, detail: {} };
    expect(() => outboxItem({ ...base, source: 'gatehouse.events', detailType: 'incident.created' })).toThrow(
      /gatehouse.events/,
    );
    expect(() => outboxItem({ ...base, source: 'incidents', detailType: 'incident.created' })).toThrow(
      /gatehouse.<feature>/,
    );
    expect(() => outboxItem({ ...base, source: 'gatehouse.incidents', detailType: 'Incident Created' })).toThrow(
      /incident.created/,
    );
    expect(() =>
      outboxItem({ ...base, tenantId: '', source: 'gatehouse.incidents', detailType: 'incident.created' }),
    ).toThrow(/tenant/);
  });
});

describe('packing entries into PutEvents calls', () => {
  const entry = (bytes: number): BusEntry => ({
    source: 's',
    detailType: 'd',
    detail: { x: 'a'.repeat(bytes) },
    time: '2026-11-21T00:00:00Z',
  });

  it('at most 10 entries and 256 KB per call, in order', () => {
    const items = Array.from({ length: 23 }, (_, i) => ({ id: String(i), entry: entry(10) }));
    expect(chunkEntries(items).map((c) => c.length)).toEqual([10, 10, 3]);
    const big = Array.from({ length: 5 }, (_, i) => ({ id: String(i), entry: entry(100 * 1024) }));
    const chunks = chunkEntries(big);
    expect(chunks.map((c) => c.map((i) => i.id))).toEqual([['0', '1'], ['2', '3'], ['4']]);
    for (const chunk of chunks)
      expect(chunk.reduce((n, i) => n + entrySize(i.entry), 0)).toBeLessThanOrEqual(MAX_BYTES_PER_CALL);
  });

  it('an event too large for one call goes out without its payload and description, marked truncated', () => {
    const huge = busEntryOf(eventRow(1, { payload: { blob: 'x'.repeat(300 * 1024) } }));
    const fitted = fitEntry(huge);
    expect(entrySize(fitted)).toBeLessThanOrEqual(MAX_BYTES_PER_CALL);
    expect(fitted.detail).toMatchObject({
      event_id: huge.detail.event_id,
      tenant_id: TENANT,
      type: 'perimeter.breach',
      truncated: true,
    });
    expect(fitted.detail).not.toHaveProperty('payload');
    const small = busEntryOf(eventRow(2));
    expect(fitEntry(small)).toBe(small);
  });
});

describe('publish-events worker', () => {
  it('23 new events go out in 3 PutEvents calls of at most 10 entries, none failed', async () => {
    eventBridge
      .on(PutEventsCommand)
      .callsFake((input: PutEventsCommandInput) => ({ FailedEntryCount: 0, Entries: ok(input.Entries!.length) }));
    const records = Array.from({ length: 23 }, (_, i) => record(i + 1, eventRow(i + 1)));
    const response = await publishStreamRecords(records, bus(), noWait);
    expect(response).toEqual({ batchItemFailures: [] });
    expect(calls().map((entries) => entries.length)).toEqual([10, 10, 3]);
    const all = calls().flat();
    expect(all.map((e) => (JSON.parse(e.Detail!) as StoredEvent).event_id)).toEqual(
      records.map((_, i) => storedEvent(i + 1).event_id),
    );
    for (const e of all) {
      expect(e).toMatchObject({
        EventBusName: 'gatehouse-test',
        Source: 'gatehouse.events',
        DetailType: 'perimeter.breach',
      });
      expect(JSON.parse(e.Detail!)).toMatchObject({ tenant_id: TENANT });
      expect(e.Time).toEqual(new Date('2026-11-21T10:00:01.000Z'));
    }
  });

  it('an entry the bus refuses is sent again, after a pause, and then succeeds', async () => {
    const refused = storedEvent(2).event_id;
    answerWith((detail, call) => call === 1 && detail.event_id === refused);
    const pauses: number[] = [];
    const records = [1, 2, 3].map((n) => record(n, eventRow(n)));
    const response = await publishStreamRecords(records, bus(), {
      sleep: (ms) => (pauses.push(ms), Promise.resolve()),
      random: () => 1,
    });
    expect(response.batchItemFailures).toEqual([]);
    expect(calls().map((entries) => entries.map((e) => (JSON.parse(e.Detail!) as StoredEvent).event_id))).toEqual([
      records.map((_, i) => storedEvent(i + 1).event_id),
      [refused],
    ]);
    expect(pauses).toEqual([100]);
  });

  it("an entry refused on every try ends as that record's batch item failure, and only that one", async () => {
    const refused = storedEvent(7).event_id;
    answerWith((detail) => detail.event_id === refused, 'InternalFailure');
    const pauses: number[] = [];
    const records = Array.from({ length: 12 }, (_, i) => record(100 + i, eventRow(i + 1)));
    const response = await publishStreamRecords(records, bus(), {
      sleep: (ms) => (pauses.push(ms), Promise.resolve()),
      random: () => 1,
    });
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: seqOf(records[6]!) }] });
    // 12 entries in 2 calls, then the refused one twice more: three tries in all, with doubling pauses.
    expect(calls().map((entries) => entries.length)).toEqual([10, 2, 1, 1]);
    expect(pauses).toEqual([100, 200]);
  });

  it('a PutEvents call that fails as a whole is retried for all its entries', async () => {
    let call = 0;
    eventBridge.on(PutEventsCommand).callsFake((input: PutEventsCommandInput) => {
      if (++call === 1) throw Object.assign(new Error('service unavailable'), { name: 'ServiceUnavailable' });
      return { FailedEntryCount: 0, Entries: ok(input.Entries!.length) };
    });
    const records = [1, 2].map((n) => record(n, eventRow(n)));
    expect(await publishStreamRecords(records, bus(), noWait)).toEqual({ batchItemFailures: [] });
    expect(calls().map((entries) => entries.length)).toEqual([2, 2]);
  });

  it('publishes outbox messages next to events; skips what the mapping filter would have dropped', async () => {
    eventBridge
      .on(PutEventsCommand)
      .callsFake((input: PutEventsCommandInput) => ({ FailedEntryCount: 0, Entries: ok(input.Entries!.length) }));
    const message = outboxItem({
      tenantId: TENANT,
      source: 'gatehouse.incidents',
      detailType: 'incident.created',
      detail: { incident_id: 'i-9' },
    });
    const records = [
      record(1, eventRow(1)),
      record(2, message),
      record(3, eventRow(1, { processed: true }), 'MODIFY'),
      record(4, { PK: `T#${TENANT}`, SK: 'TENANT', entity: 'TENANT' }),
    ];
    expect(await publishStreamRecords(records, bus(), noWait)).toEqual({ batchItemFailures: [] });
    const entries = calls().flat();
    expect(entries.map((e) => [e.Source, e.DetailType])).toEqual([
      ['gatehouse.events', 'perimeter.breach'],
      ['gatehouse.incidents', 'incident.created'],
    ]);
    expect(JSON.parse(entries[1]!.Detail!)).toEqual({
      incident_id: 'i-9',
      tenant_id: TENANT,
      message_id: message.outbox_id,
    });
  });

  it('an item that cannot be published fails its record at once, without a call', async () => {
    const records = [record(5, untypedRow())];
    expect(await publishStreamRecords(records, bus(), noWait)).toEqual({
      batchItemFailures: [{ itemIdentifier: seqOf(records[0]!) }],
    });
    expect(calls()).toEqual([]);
  });

  it('the Lambda handler publishes to the configured bus with EventBridge', async () => {
    eventBridge.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: ok(1) });
    const response = await handler({ Records: [record(1, eventRow(1))] });
    expect(response).toEqual({ batchItemFailures: [] });
    expect(config.eventBusMode).toBe('aws');
    expect(
      calls()
        .flat()
        .map((e) => e.EventBusName),
    ).toEqual([config.eventBusName]);
  });
});

describe('the retry policy', () => {
  it('gives up after the configured tries and says why', async () => {
    const put = vi.fn(() => Promise.resolve([{ errorCode: 'ThrottlingException', errorMessage: 'Rate exceeded' }]));
    const result = await publishEntries([{ id: 'a', entry: busEntryOf(eventRow(1)) }], put, {
      retry: { attempts: 5, baseDelayMs: 10, maxDelayMs: 25 },
      sleep: () => Promise.resolve(),
    });
    expect(put).toHaveBeenCalledTimes(5);
    expect(result).toEqual({
      published: 0,
      calls: 5,
      failed: [{ id: 'a', errorCode: 'ThrottlingException', errorMessage: 'Rate exceeded' }],
    });
  });
});
