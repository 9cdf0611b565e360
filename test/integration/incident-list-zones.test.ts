/**
 * The incident list of an incident in more zones than a transaction holds (issue 39): it opens,
 * links an event matching many more and changes like any other, listed and counted exactly in each
 * scope; the counts its transaction could not hold are applied just after it or, when that step
 * fails, by the stream worker, each once however often its record comes. Rows a failed clean-up
 * left are swept by the readers that skip them; a row of a change on its way stays.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { countStreamRecords } from '../../functions/workers/count-analytics.js';
import { db, TABLE } from '../../shared/db/client.js';
import { eventItem, writeAll } from '../../shared/db/events.js';
import { getIncident } from '../../shared/db/incidents.js';
import { scopesOf } from '../../shared/db/incident-list.js';
import { COUNT_SHARDS } from '../../shared/db/incident-list-counts.js';
import * as keys from '../../shared/db/item-keys.js';
import { markProcessed } from '../../shared/domain/events/read.js';
import { listIncidents, openIncident, respond, type ListQuery } from '../../shared/domain/incidents/index.js';
import { systemTenant, type TenantId } from '../../shared/vocabulary/tenant.js';
import { adminIn, storedEventAt } from '../support/seed.js';
import { PIPELINE_WAIT_MS } from '../support/pipeline.js';

const query = (q: Partial<ListQuery>): ListQuery => ({
  limit: 21,
  offset: 0,
  sort_by: 'updated_at',
  sort_order: 'desc',
  ...q,
});
const zones = (n: number) => Array.from({ length: n }, () => randomUUID());

const queryAll = async (pk: string, skPrefix?: string) =>
  (
    await db.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: skPrefix ? 'PK = :pk AND begins_with(SK, :sk)' : 'PK = :pk',
        ExpressionAttributeValues: skPrefix ? { ':pk': pk, ':sk': skPrefix } : { ':pk': pk },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

/** The tenant's list counts, scope -> sum of its shards, zeros left out. */
async function countsOf(tenantId: TenantId): Promise<Record<string, number>> {
  const sums: Record<string, number> = {};
  for (const item of await queryAll(`T#${tenantId}#INCCOUNT`)) {
    const scope = String(item.SK).slice(0, String(item.SK).lastIndexOf('#'));
    sums[scope] = (sums[scope] ?? 0) + Number(item.n);
  }
  return Object.fromEntries(Object.entries(sums).filter(([, n]) => n !== 0));
}

/** What the counts must be: each scope of each incident as it stands, once. */
async function expectedCounts(tenantId: TenantId, ids: readonly string[]): Promise<Record<string, number>> {
  const sums: Record<string, number> = {};
  for (const id of ids)
    for (const scope of scopesOf((await getIncident(tenantId, id))!)) sums[scope] = (sums[scope] ?? 0) + 1;
  return sums;
}

const pendingOf = (tenantId: TenantId, incidentId: string) =>
  queryAll(keys.incident(tenantId, incidentId).PK, 'LISTCOUNTS#');

const totalIn = async (tenantId: TenantId, zone: string) =>
  (await listIncidents(tenantId, query({ zone_id: zone }))).total;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('an incident in more zones than a transaction holds', () => {
  it('opens in 150 zones, links an event matching 120 others, changes status: listed and counted exactly at each step', async () => {
    const tenantId = systemTenant(randomUUID());
    const actor = adminIn(tenantId);
    const located = zones(150);
    const matched = zones(120);
    const { incident_id } = await openIncident(
      actor,
      tenantId,
      { title: 'Along the fence', severity: 'high' },
      'manual',
      {
        location_zone_ids: located,
      },
    );
    const other = await openIncident(actor, tenantId, { title: 'Elsewhere', severity: 'low' }, 'manual', {
      location_zone_ids: [located[149]!, matched[119]!],
    });
    const ids = [incident_id, other.incident_id];
    expect(await countsOf(tenantId)).toEqual(await expectedCounts(tenantId, ids));
    expect([await totalIn(tenantId, located[0]!), await totalIn(tenantId, located[149]!)]).toEqual([1, 2]);

    // The events code runs the link's transaction: the incident joins 120 zones in it.
    const event = storedEventAt(tenantId, null, Date.now(), { matched_zone_ids: matched });
    await writeAll([eventItem({ event, contentHash: '', expiresAt: 0 })]);
    await markProcessed(actor, event.event_id, tenantId, { processed: true, incident_id }, 'enterprise');
    expect((await getIncident(tenantId, incident_id))!.zone_ids).toHaveLength(270);
    expect(await countsOf(tenantId)).toEqual(await expectedCounts(tenantId, ids));
    expect([await totalIn(tenantId, matched[0]!), await totalIn(tenantId, matched[119]!)]).toEqual([1, 2]);

    const moved = await respond(actor, tenantId, incident_id, { status: 'acknowledged' });
    expect(moved.status).toBe('acknowledged');
    const counts = await countsOf(tenantId);
    expect(counts).toEqual(await expectedCounts(tenantId, ids));
    expect([counts['status#acknowledged'], counts['status#confirmed'], counts.all]).toEqual([1, 1, 2]);
    for (const zone of [located[0]!, located[149]!, matched[0]!, matched[119]!]) {
      const page = await listIncidents(tenantId, query({ zone_id: zone, status: 'acknowledged' }));
      expect({ ids: page.items.map((i) => i.incident_id), total: page.total }).toEqual({
        ids: [incident_id],
        total: 1,
      });
    }
    expect([await totalIn(tenantId, located[149]!), await totalIn(tenantId, matched[119]!)]).toEqual([2, 2]);
    // Nothing pending is left of any of its changes.
    expect(await pendingOf(tenantId, incident_id)).toEqual([]);
  });

  it('when the step after its transaction fails, the stream worker applies the counts left, once however often the record comes', async () => {
    const tenantId = systemTenant(randomUUID());
    const actor = adminIn(tenantId);
    const located = zones(150);
    // The step after the transaction cannot read the pending counts (as if the process died then).
    const send = db.send.bind(db);
    const written: Record<string, unknown>[] = [];
    vi.spyOn(db, 'send').mockImplementation(((command: unknown) => {
      if (command instanceof GetCommand && String(command.input.Key?.SK).startsWith('LISTCOUNTS#'))
        return Promise.reject(new Error('the process stopped'));
      if (command instanceof TransactWriteCommand)
        for (const item of command.input.TransactItems ?? [])
          if (String(item.Put?.Item?.SK).startsWith('LISTCOUNTS#')) written.push(item.Put!.Item!);
      return send(command as never);
    }) as never);
    const { incident_id } = await openIncident(actor, tenantId, { title: 'Along the fence' }, 'manual', {
      location_zone_ids: located,
    });
    vi.restoreAllMocks();
    expect(written).toHaveLength(1);

    // The local stack's stream worker (count-analytics) sees the pending item inserted and applies it.
    await vi.waitFor(async () => expect(await pendingOf(tenantId, incident_id)).toEqual([]), {
      timeout: PIPELINE_WAIT_MS,
      interval: 200,
    });
    const want = await expectedCounts(tenantId, [incident_id]);
    expect(await countsOf(tenantId)).toEqual(want);
    expect(await totalIn(tenantId, located[149]!)).toBe(1);

    // The same record again, twice in a batch and once more: nothing more is counted.
    const record: DynamoDBRecord = {
      eventName: 'INSERT',
      eventSource: 'aws:dynamodb',
      dynamodb: {
        SequenceNumber: '1'.padStart(21, '0'),
        NewImage: marshall(written[0]!, { removeUndefinedValues: true }) as never,
        StreamViewType: 'NEW_IMAGE',
      },
    };
    expect(
      await countStreamRecords([
        record,
        { ...record, dynamodb: { ...record.dynamodb, SequenceNumber: '2'.padStart(21, '0') } },
      ]),
    ).toEqual({ batchItemFailures: [] });
    expect(await countStreamRecords([record])).toEqual({ batchItemFailures: [] });
    expect(await countsOf(tenantId)).toEqual(want);
  });
});

describe('an event moved between two incidents of one count shard', () => {
  it('moves the zone count in one transaction with one operation per item, and both stay counted exactly', async () => {
    const tenantId = systemTenant(randomUUID());
    const actor = adminIn(tenantId);
    const zone = randomUUID();
    const shard = (id: string) => parseInt(id.slice(-1), 16) % COUNT_SHARDS;
    // The event's zone is the first incident's only one; the second, of the same shard, has none.
    const event = storedEventAt(tenantId, null, Date.now(), { matched_zone_ids: [zone] });
    await writeAll([eventItem({ event, contentHash: '', expiresAt: 0 })]);
    const first = await openIncident(actor, tenantId, { title: 'At the gate', severity: 'high' }, 'manual', {});
    await markProcessed(
      actor,
      event.event_id,
      tenantId,
      { processed: true, incident_id: first.incident_id },
      'enterprise',
    );
    let second = await openIncident(actor, tenantId, { title: 'Later', severity: 'low' }, 'manual', {});
    const opened = [first.incident_id, second.incident_id];
    while (shard(second.incident_id) !== shard(first.incident_id)) {
      second = await openIncident(actor, tenantId, { title: 'Later', severity: 'low' }, 'manual', {});
      opened.push(second.incident_id);
    }
    expect(await totalIn(tenantId, zone)).toBe(1);

    // DynamoDB refuses a transaction with two operations on one item: the counts of the two go to two shards.
    const send = db.send.bind(db);
    const sent: string[][] = [];
    vi.spyOn(db, 'send').mockImplementation(((command: unknown) => {
      if (command instanceof TransactWriteCommand)
        sent.push(
          (command.input.TransactItems ?? []).map((item) => {
            const body = Object.values(item)[0] as { Key?: Record<string, unknown>; Item?: Record<string, unknown> };
            const key = body.Key ?? body.Item!;
            return `${String(key.PK)} ${String(key.SK)}`;
          }),
        );
      return send(command as never);
    }) as never);
    await markProcessed(
      actor,
      event.event_id,
      tenantId,
      { processed: true, incident_id: second.incident_id },
      'enterprise',
    );
    vi.restoreAllMocks();

    expect(sent).toHaveLength(1);
    expect(sent[0]!.length).toBe(new Set(sent[0]).size);
    expect((await getIncident(tenantId, first.incident_id))!.zone_ids).toEqual([]);
    expect((await getIncident(tenantId, second.incident_id))!.zone_ids).toEqual([zone]);
    const page = await listIncidents(tenantId, query({ zone_id: zone }));
    expect({ ids: page.items.map((i) => i.incident_id), total: page.total }).toEqual({
      ids: [second.incident_id],
      total: 1,
    });
    expect(await countsOf(tenantId)).toEqual(await expectedCounts(tenantId, opened));
  });
});

describe('rows a failed clean-up left', () => {
  it('are swept by the reader that skips them, the page answering the same; a row of a change on its way stays', async () => {
    const tenantId = systemTenant(randomUUID());
    const actor = adminIn(tenantId);
    const zone = randomUUID();
    const ids: string[] = [];
    for (let n = 0; n < 3; n++)
      ids.push(
        (await openIncident(actor, tenantId, { title: `Gate ${n}` }, 'manual', { location_zone_ids: [zone] }))
          .incident_id,
      );
    // The deletes after the change's transaction fail: the rows it left stay.
    const send = db.send.bind(db);
    vi.spyOn(db, 'send').mockImplementation(((command: unknown) =>
      command instanceof DeleteCommand && String(command.input.Key?.PK).includes('#INCL#')
        ? Promise.reject(new Error('throttled'))
        : send(command as never)) as never);
    await respond(actor, tenantId, ids[0]!, { status: 'acknowledged' });
    vi.restoreAllMocks();
    const confirmedRows = () => queryAll(keys.incidentListPk(tenantId, 'status#confirmed', 'u'));
    const zoneRows = () => queryAll(keys.incidentListPk(tenantId, `zone#${zone}`, 'u'));
    expect(await confirmedRows()).toHaveLength(3);
    expect(await zoneRows()).toHaveLength(4);
    // A change on its way: its row is put (version 2) before its transaction moves the incident (at 1).
    const inFlight = keys.incidentListRow(tenantId, `zone#${zone}`, 'u', '9999-01-01T00:00:00.000Z', ids[1]!);
    await db.send(new PutCommand({ TableName: TABLE, Item: { ...inFlight, v: 2 } }));

    const want = { ids: [ids[2], ids[1]], total: 2 };
    const first = await listIncidents(tenantId, query({ status: 'confirmed' }));
    expect({ ids: first.items.map((i) => i.incident_id), total: first.total }).toEqual(want);
    const inZone = await listIncidents(tenantId, query({ zone_id: zone }));
    expect(inZone.items.map((i) => i.incident_id)).toEqual([ids[0], ids[2], ids[1]]);

    // The stale rows are gone; the in-flight one stays; the pages answer the same.
    expect(await confirmedRows()).toHaveLength(2);
    const left = (await zoneRows()).map((r) => r.SK);
    expect(left).toHaveLength(4);
    expect(left).toContain(inFlight.SK);
    const again = await listIncidents(tenantId, query({ status: 'confirmed' }));
    expect({ ids: again.items.map((i) => i.incident_id), total: again.total }).toEqual(want);
    expect((await listIncidents(tenantId, query({ zone_id: zone }))).items.map((i) => i.incident_id)).toEqual([
      ids[0],
      ids[2],
      ids[1],
    ]);
  });
});
