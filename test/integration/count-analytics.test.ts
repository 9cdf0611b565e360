/**
 * Worker count-analytics against the run's DynamoDB Local, fed stream records made here (for
 * tenants of this file only, whose events and incidents exist nowhere else): every event and
 * every incident change is counted exactly once, whatever the batches repeat, overlap or reorder,
 * and however many calls run at once. Expected counters are worked out here from the inputs.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { countStreamRecords } from '../../functions/workers/count-analytics.js';
import { db, TABLE } from '../../shared/db/client.js';
import { forEachPage } from '../../shared/db/query.js';
import { getThreat, threatIdOf } from '../../shared/db/threats.js';
import { newTimeId } from '../../shared/ids.js';

let sequence = 0;
function record(eventName: 'INSERT' | 'MODIFY', item: Record<string, unknown>): DynamoDBRecord {
  sequence++;
  return {
    eventName,
    eventSource: 'aws:dynamodb',
    dynamodb: {
      SequenceNumber: String(sequence).padStart(21, '0'),
      NewImage: marshall(item, { removeUndefinedValues: true }) as never,
      StreamViewType: 'NEW_IMAGE',
    },
  };
}

/** A tenant's counter items: `SK` -> its numeric attributes, zeros left out. */
async function countersOf(tenantId: string): Promise<Record<string, Record<string, number>>> {
  const out: Record<string, Record<string, number>> = {};
  await forEachPage(
    {
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': `T#${tenantId}#STATS` },
      ConsistentRead: true,
    },
    (page) => {
      for (const item of page.Items ?? []) {
        const counts = Object.fromEntries(
          Object.entries(item).filter(([, v]) => typeof v === 'number' && v !== 0),
        ) as Record<string, number>;
        if (Object.keys(counts).length > 0) out[String(item.SK)] = counts;
      }
    },
  );
  return out;
}

interface SyntheticEvent {
  event_id: string;
  type: string;
  occurred_at: string;
  environment_id?: string;
  matched_zone_ids: string[];
  threat_score: number;
}

const eventItem = (tenantId: string, e: SyntheticEvent) => ({
  PK: `T#${tenantId}#EVENT`,
  SK: e.event_id,
  entity: 'EVENT',
  source: 'api',
  received_at: e.occurred_at,
  ...e,
});

/** What the counters must hold for these events, worked out plainly. */
function expectedFor(events: readonly SyntheticEvent[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  const add = (sk: string, name: string, n: number) => {
    if (n === 0) return;
    out[sk] ??= {};
    out[sk][name] = (out[sk][name] ?? 0) + n;
  };
  for (const e of events) {
    const day = e.occurred_at.slice(0, 10);
    const hh = e.occurred_at.slice(11, 13);
    const scopes = [
      'all',
      ...(e.environment_id ? [`env#${e.environment_id}`] : []),
      ...e.matched_zone_ids.map((z) => `zone#${z}`),
    ];
    for (const scope of scopes) {
      add(`EV#${scope}#${day}`, `c#${e.type}#${hh}`, 1);
      add(`EV#${scope}#${day}`, `s#${e.type}#${hh}`, Math.round(e.threat_score * 1000));
    }
  }
  return out;
}

function syntheticEvents(n: number): SyntheticEvent[] {
  const envs = [randomUUID(), randomUUID()];
  const zones = [randomUUID(), randomUUID(), randomUUID()];
  const types = ['door.forced', 'glass.break', 'motion.detected'];
  return Array.from({ length: n }, (_, i) => ({
    event_id: newTimeId(),
    type: types[i % 3]!,
    occurred_at: new Date(Date.UTC(2026, 0, 1 + (i % 4), (i * 7) % 24, i % 60)).toISOString(),
    ...(i % 5 === 0 ? {} : { environment_id: envs[i % 2]! }),
    matched_zone_ids: i % 5 === 0 ? [] : zones.slice(0, i % 4),
    threat_score: Math.round((i * 37) % 1000) / 1000,
  }));
}

describe('worker count-analytics: events', () => {
  it('counts each event once across repeated and overlapping batches, dropping only what a transaction had counted', async () => {
    const tenantId = randomUUID();
    const events = syntheticEvents(250);
    const records = events.map((e) => record('INSERT', eventItem(tenantId, e)));

    expect(await countStreamRecords(records.slice(0, 150))).toEqual({ batchItemFailures: [] });
    expect(await countersOf(tenantId)).toEqual(expectedFor(events.slice(0, 150)));

    // A retried batch from record 100: its first transactions mix counted and new events.
    expect(await countStreamRecords(records.slice(100))).toEqual({ batchItemFailures: [] });
    // The whole stream again, in another order.
    expect(await countStreamRecords([...records].reverse())).toEqual({ batchItemFailures: [] });
    expect(await countersOf(tenantId)).toEqual(expectedFor(events));
    // New events, each twice in one batch: DynamoDB refuses a transaction that writes an item
    // twice (DynamoDB Local lets it pass), so no transaction may hold an event's marker twice.
    const more = syntheticEvents(40);
    const twice = more.map((e) => record('INSERT', eventItem(tenantId, e)));
    const send = vi.spyOn(db, 'send');
    try {
      expect(await countStreamRecords([...twice, ...twice])).toEqual({ batchItemFailures: [] });
      const transactions = send.mock.calls.map(([command]) => command).filter((c) => c instanceof TransactWriteCommand);
      expect(transactions.length).toBeGreaterThan(0);
      for (const t of transactions) {
        const keys = t.input.TransactItems!.map((i) =>
          JSON.stringify(i.Put?.Item ? [i.Put.Item.PK, i.Put.Item.SK] : [i.Update!.Key!.PK, i.Update!.Key!.SK]),
        );
        expect(new Set(keys).size).toBe(keys.length);
      }
    } finally {
      send.mockRestore();
    }
    expect(await countersOf(tenantId)).toEqual(expectedFor([...events, ...more]));
  });

  it('counts an event in more zones than a transaction holds in parts, each part once', async () => {
    const tenantId = randomUUID();
    const [event] = syntheticEvents(1);
    const wide = {
      ...event!,
      environment_id: randomUUID(),
      matched_zone_ids: Array.from({ length: 130 }, () => randomUUID()),
    };
    const rec = record('INSERT', eventItem(tenantId, wide));
    expect(await countStreamRecords([rec])).toEqual({ batchItemFailures: [] });
    expect(await countStreamRecords([rec, rec])).toEqual({ batchItemFailures: [] });
    const counters = await countersOf(tenantId);
    expect(Object.keys(counters)).toHaveLength(132);
    expect(counters).toEqual(expectedFor([wide]));
  });

  it('two workers on the same records at once count them once', async () => {
    const tenantId = randomUUID();
    const events = syntheticEvents(120);
    const records = events.map((e) => record('INSERT', eventItem(tenantId, e)));
    const answers = await Promise.all([
      countStreamRecords(records),
      countStreamRecords(records),
      countStreamRecords(records.slice(60)),
    ]);
    // A transaction that lost to another on a shared counter is retried by the transaction
    // itself; one that still loses is reported and comes again with the batch.
    const failed = new Set(answers.flatMap((a) => a.batchItemFailures.map((f) => f.itemIdentifier)));
    if (failed.size > 0)
      expect(await countStreamRecords(records.filter((r) => failed.has(r.dynamodb!.SequenceNumber!)))).toEqual({
        batchItemFailures: [],
      });
    expect(await countersOf(tenantId)).toEqual(expectedFor(events));
  });

  it('passes over what it does not count, and reports an event item it cannot read', async () => {
    const tenantId = randomUUID();
    const [event] = syntheticEvents(1);
    const item = eventItem(tenantId, event!);
    const modify = record('MODIFY', { ...item, processed: true });
    const other = record('INSERT', { PK: `T#${tenantId}#OUTBOX`, SK: newTimeId(), entity: 'OUTBOX' });
    const broken = record('INSERT', { PK: `T#${tenantId}#EVENT`, SK: newTimeId(), entity: 'EVENT' });
    expect(await countStreamRecords([modify, other, broken])).toEqual({
      batchItemFailures: [{ itemIdentifier: broken.dynamodb!.SequenceNumber }],
    });
    expect(await countersOf(tenantId)).toEqual({});
  });
});

describe('worker count-analytics: incidents', () => {
  const created = '2026-02-03T10:15:00.000Z';
  const at = (seconds: number) => new Date(Date.parse(created) + seconds * 1000).toISOString();
  const status = (seconds: number, from: string | null, to: string) => ({
    at: at(seconds),
    kind: 'status',
    by: 'u',
    detail: { from, to },
  });

  /** The versions of one incident: confirmed, acknowledged late (breached), resolved, a note. */
  function versionsOf(tenantId: string) {
    const incidentId = newTimeId();
    const base = {
      PK: `T#${tenantId}#INC#${incidentId}`,
      SK: 'INCIDENT',
      entity: 'INCIDENT',
      incident_id: incidentId,
      tenant_id: tenantId,
      title: 'Fence cut',
      severity: 'critical',
      created_at: created,
      sla_due_at: at(900),
      sla_breached_at: null,
    };
    const h1 = [status(0, null, 'draft'), status(0, 'draft', 'confirmed')];
    const h2 = [...h1, status(1000, 'confirmed', 'acknowledged')];
    const h3 = [...h2, status(5000, 'acknowledged', 'resolved')];
    return [
      { ...base, version: 1, status: 'confirmed', history: h1 },
      { ...base, version: 2, status: 'acknowledged', sla_breached_at: at(900), history: h2 },
      { ...base, version: 3, status: 'resolved', sla_breached_at: at(900), history: h3 },
      {
        ...base,
        version: 4,
        status: 'resolved',
        sla_breached_at: at(900),
        history: [...h3, { at: at(6000), kind: 'note', by: 'u', detail: { text: 'done' } }],
      },
    ];
  }

  const hourKey = 'INC#2026-02-03T10';
  const finalCounts = { n: 1, 'st#resolved': 1, 'sv#critical': 1, 'sla#breached': 1, 'ack#1000': 1, 'res#5000': 1 };

  it("moves an incident's contribution with each newer image, once, and never back to an older one", async () => {
    const tenantId = randomUUID();
    const [v1, v2, v3, v4] = versionsOf(tenantId);
    await countStreamRecords([record('INSERT', v1!)]);
    expect(await countersOf(tenantId)).toEqual({
      [hourKey]: { n: 1, 'st#confirmed': 1, 'sv#critical': 1, 'sla#pending': 1 },
    });
    // v2, with v1 delivered again behind it.
    await countStreamRecords([record('MODIFY', v2!), record('INSERT', v1!)]);
    expect(await countersOf(tenantId)).toEqual({
      [hourKey]: { n: 1, 'st#acknowledged': 1, 'sv#critical': 1, 'sla#breached': 1, 'ack#1000': 1 },
    });
    await countStreamRecords([record('MODIFY', v4!)]);
    expect(await countersOf(tenantId)).toEqual({ [hourKey]: finalCounts });
    // Stale images arriving late (a redriven batch) change nothing.
    await countStreamRecords([record('MODIFY', v3!), record('MODIFY', v2!), record('INSERT', v1!)]);
    expect(await countersOf(tenantId)).toEqual({ [hourKey]: finalCounts });
  });

  it('applies only the newest image of a batch, and two workers at once apply it once', async () => {
    const tenantId = randomUUID();
    const [v1, v2, v3, v4] = versionsOf(tenantId);
    const other = versionsOf(tenantId);
    const batch = [
      record('INSERT', v1!),
      record('MODIFY', v2!),
      record('MODIFY', v3!),
      record('INSERT', other[0]!),
      record('MODIFY', other[1]!),
    ];
    const answers = await Promise.all([countStreamRecords(batch), countStreamRecords(batch)]);
    for (const a of answers) expect(a).toEqual({ batchItemFailures: [] });
    await Promise.all([countStreamRecords([record('MODIFY', v4!)]), countStreamRecords([record('MODIFY', v4!)])]);
    expect(await countersOf(tenantId)).toEqual({
      [hourKey]: {
        n: 2,
        'st#resolved': 1,
        'st#acknowledged': 1,
        'sv#critical': 2,
        'sla#breached': 2,
        'ack#1000': 2,
        'res#5000': 1,
      },
    });
  });
});

describe('count-analytics keeps the active threats', () => {
  it('counts each matching event once however the batches repeat, widens first and last seen out of order, and links incidents once', async () => {
    const tenantId = randomUUID();
    const zoneId = randomUUID();
    const match = {
      library_id: randomUUID(),
      definition_id: 'maritime.cable-loitering',
      name: 'Loitering near a subsea cable',
      severity: 'high' as const,
      weight: 0.5,
      zone_id: zoneId,
    };
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 10, minute)).toISOString();
    const events = [12, 3, 30, 7].map((minute) => ({
      event_id: newTimeId(),
      type: 'vessel.loitering',
      occurred_at: at(minute),
      matched_zone_ids: [zoneId],
      matched_signatures: [match],
      threat_score: 0.8,
    }));
    const plain = {
      event_id: newTimeId(),
      type: 'vessel.loitering',
      occurred_at: at(40),
      matched_zone_ids: [zoneId],
      threat_score: 0.1,
    };
    const inserts = [...events, plain].map((e) => record('INSERT', eventItem(tenantId, e)));

    // Overlapping and repeated batches, the later times first.
    await countStreamRecords([inserts[2]!, inserts[0]!]);
    await countStreamRecords([inserts[0]!, inserts[1]!, inserts[2]!, inserts[3]!, inserts[4]!]);
    await countStreamRecords(inserts);
    const incidentId = randomUUID();
    const linked = record('MODIFY', { ...eventItem(tenantId, events[1]!), incident_id: incidentId });
    await countStreamRecords([linked]);
    await countStreamRecords([linked, inserts[1]!]);

    const threat = await getThreat(tenantId as never, threatIdOf(tenantId, match));
    expect(threat).toMatchObject({
      name: match.name,
      zone_id: zoneId,
      status: 'active',
      count: 4,
      first_seen: at(3),
      last_seen: at(30),
      incident_ids: [incidentId],
    });
  });
});
