/**
 * An event's item (shared/db/event-items.ts): a typical event stored in under 1 KB (one write unit
 * a copy), read back as the very event the API showed, and items written before the compact form
 * read the same; the filters' sparse key (GSI4) only on the events of a keyed source or score.
 */
import { createHash } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { eventFromItem, eventItem, scoreBand, type StoredEvent } from '../../shared/db/event-items.js';
import { itemSize } from '../../shared/local/dynamodb-meter.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';

const TENANT = systemTenant('0198f0a0-1111-7000-8000-0000000000aa');
const ENV = '0198f0a0-2222-7000-8000-0000000000bb';
const SENSOR = '0198f0a0-3333-7000-8000-0000000000cc';
const ZONE = '0198f0a0-4444-7000-8000-0000000000dd';
/** A server-made id: its time is the receipt's. */
const ID = '019ac2f1-6b2c-7a3d-9e4f-0123456789ab';
const RECEIVED = new Date(0x019ac2f16b2c).toISOString();
const HASH = createHash('sha256').update('sent').digest('hex');

/** An event as ingest stores one of the benchmark's (a sensor's, in a zone, scored). */
function typical(extra: Partial<StoredEvent> = {}): StoredEvent {
  return {
    event_id: ID,
    tenant_id: TENANT,
    environment_id: ENV,
    sensor_id: SENSOR,
    type: 'perimeter.breach',
    source: 'api',
    occurred_at: '2026-11-28T09:15:00.000Z',
    received_at: RECEIVED,
    location: { lat: 59.9112, lon: 10.7514 },
    severity: null,
    description: 'Movement 12345 near the fence',
    payload: { seq: 12345, speed_mps: 3.5 },
    matched_zone_ids: [ZONE, ZONE.replace('dd', 'de')],
    matched_signatures: [],
    threat_score: 0.463,
    threat_factors: {
      type: { value: 0.85, weight: 0.35 },
      zone: { value: 0.5, weight: 0.25 },
      after_hours: { value: 1, weight: 0.1 },
      density: { value: 0.35, weight: 0.1 },
      sensor_health: { value: 0, weight: 0.1 },
      reported_severity: { value: 0, weight: 0.1 },
    },
    processed: false,
    processed_at: null,
    incident_id: null,
    ...extra,
  };
}

const stored = (event: StoredEvent) => eventItem({ event, contentHash: HASH, expiresAt: 1_900_000_000 });
/** DynamoDB's size of an item (names and values), with the store sequence ingest adds (GSI5). */
const bytes = (item: Record<string, unknown>) =>
  itemSize(
    marshall(
      {
        ...item,
        GSI5SK: '000000123456',
        seq_at: 1_764_320_000_000,
        correlation_id: '3f2b8c1e-5d6a-4e7f-8a9b-0c1d2e3f4a5b',
      },
      { removeUndefinedValues: true },
    ) as unknown as Parameters<typeof itemSize>[0],
  );

/** The item the table held for `event` before the compact form: every field by name. */
function itemOfBefore(event: StoredEvent): Record<string, unknown> {
  const { tenant_id: _t, threat_factors: factors, ...fields } = event;
  const kept = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null));
  if (event.matched_signatures.length === 0) delete kept.matched_signatures;
  return {
    PK: `T#${TENANT}#EVENT`,
    SK: event.event_id,
    ...(event.environment_id
      ? { GSI1PK: `T#${TENANT}#ENV#${event.environment_id}`, GSI1SK: `EVENT#${event.event_id}` }
      : {}),
    GSI2PK: `T#${TENANT}#EVTYPE#${event.type}`,
    GSI2SK: event.event_id,
    entity: 'EVENT',
    ...kept,
    ...(factors
      ? { threat_factors: Object.fromEntries(Object.entries(factors).map(([k, f]) => [k, [f.value, f.weight]])) }
      : {}),
    content_hash: HASH,
    expires_at: 1_900_000_000,
  };
}

describe('an event item', () => {
  it('holds a typical event in under 1 KB, where the full form took more', () => {
    const event = typical();
    expect(bytes(stored(event))).toBeLessThan(1024);
    expect(bytes(itemOfBefore(event))).toBeGreaterThan(1024);
    // A keyed one (a score in a band, from a sensor) with its GSI4 key too.
    expect(bytes(stored(typical({ source: 'sensor', threat_score: 0.71 })))).toBeLessThan(1024);
  });

  it('reads back as the event it stored, field for field and in the same order', () => {
    const cases: StoredEvent[] = [
      typical(),
      // A client's id (its time is not the receipt's), the occurrence the receipt's.
      typical({ event_id: '019ac2f0-0000-7000-8000-000000000001', occurred_at: RECEIVED }),
      typical({ occurred_at: RECEIVED, source: 'human', severity: 'high', environment_id: null }),
      typical({ processed: true, processed_at: '2026-11-28T10:00:00.000Z', incident_id: ZONE }),
      typical({
        threat_factors: {
          ...typical().threat_factors!,
          signatures: { value: 0.5, weight: 1 },
          operator_override: { value: 0.9, weight: 1 },
        },
        matched_signatures: [
          { library_id: ZONE, definition_id: 'd1', name: 'Breach', severity: 'high', weight: 0.5, zone_id: null },
        ],
      }),
      // Factors of other weights than the compact form's are kept by name.
      typical({ threat_factors: { type: { value: 0.85, weight: 0.4 }, zone: { value: 0, weight: 0.6 } } }),
      typical({ threat_score: null, threat_factors: null, location: null, sensor_id: null, description: null }),
    ];
    for (const event of cases) {
      const read = eventFromItem(stored(event));
      expect(JSON.stringify(read)).toBe(JSON.stringify(event));
    }
  });

  it('reads an item of before the compact form as the same event', () => {
    for (const event of [typical(), typical({ source: 'human', processed: true, processed_at: RECEIVED })])
      expect(JSON.stringify(eventFromItem(itemOfBefore(event)))).toBe(JSON.stringify(event));
  });

  it('has the filters key only for a keyed source or a score of 0.5 or more, its band and tags in the key', () => {
    expect(stored(typical()).GSI4PK).toBeUndefined();
    expect(stored(typical({ source: 'sensor' }))).toMatchObject({
      GSI4PK: `T#${TENANT}#EVF#sensor#-`,
      GSI4SK: `${ID}#0.463#perimeter.breach#${ENV.slice(0, 8)}`,
    });
    expect(stored(typical({ threat_score: 0.73 })).GSI4PK).toBe(`T#${TENANT}#EVF#api#0.7`);
    expect(stored(typical({ threat_score: 1, environment_id: null })).GSI4SK).toBe(`${ID}#1#perimeter.breach#`);
    expect([0.5, 0.599, 0.6, 0.7, 0.8, 0.9, 1, 0.499].map(scoreBand)).toEqual([
      '0.5',
      '0.5',
      '0.6',
      '0.7',
      '0.8',
      '0.9',
      '0.9',
      '-',
    ]);
  });
});
