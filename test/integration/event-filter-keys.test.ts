/**
 * The event filters' key (GSI4: a source other than `api`, a score of 0.5 or more): events stored
 * before it are found by `source` and `min_score` once bin/migrate-event-filter-keys.ts has run,
 * and a second run changes nothing; an operator's new score moves the key with it.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  eventItem,
  getEvent,
  keyEventFiltersOfTenant,
  listEvents,
  markProcessedUpdate,
  writeAll,
  type StoredEvent,
} from '../../shared/db/events.js';
import { transactWrite } from '../../shared/db/transact.js';
import { newTimeId, now } from '../../shared/ids.js';
import { systemTenant, type TenantId } from '../../shared/vocabulary/tenant.js';
import { storedEventAt } from '../support/seed.js';

const page = { limit: 10, offset: 0 };
const ids = (events: StoredEvent[]) => events.map((e) => e.event_id);

function event(tenantId: TenantId, source: string, score: number): StoredEvent {
  return storedEventAt(tenantId, null, Date.now(), { event_id: newTimeId(), source, threat_score: score });
}

/** The item as the table held it before the filters' key, every field by name (as the full form stored them). */
function itemOfBefore(e: StoredEvent): Record<string, unknown> {
  const {
    GSI4PK: _pk,
    GSI4SK: _sk,
    ...item
  } = eventItem({
    event: e,
    contentHash: 'h',
    expiresAt: Math.floor(Date.now() / 1000) + 3600,
  });
  return {
    ...item,
    event_id: e.event_id,
    type: e.type,
    source: e.source,
    received_at: e.received_at,
    processed: false,
  };
}

describe('the event filters key', () => {
  it('is given to the events of before by the migration, once', async () => {
    const tenantId = systemTenant(randomUUID());
    const [report, alarm, high, plain] = [
      event(tenantId, 'human', 0.1),
      event(tenantId, 'sensor', 0.9),
      event(tenantId, 'api', 0.7),
      event(tenantId, 'api', 0.1),
    ] as [StoredEvent, StoredEvent, StoredEvent, StoredEvent];
    await writeAll([report, alarm, high, plain].map(itemOfBefore));
    expect((await listEvents(tenantId, { source: 'human' }, page)).events).toEqual([]);
    expect((await listEvents(tenantId, { minScore: 0.6 }, page)).events).toEqual([]);

    expect(await keyEventFiltersOfTenant(tenantId)).toBe(3);
    expect(ids((await listEvents(tenantId, { source: 'human' }, page)).events)).toEqual([report.event_id]);
    expect(ids((await listEvents(tenantId, { source: 'sensor' }, page)).events)).toEqual([alarm.event_id]);
    expect(ids((await listEvents(tenantId, { minScore: 0.6 }, page)).events)).toEqual([high.event_id, alarm.event_id]);
    expect(ids((await listEvents(tenantId, { minScore: 0.8 }, page)).events)).toEqual([alarm.event_id]);
    // The dominant source is read from the partition, whatever the items hold.
    expect(ids((await listEvents(tenantId, { source: 'api' }, page)).events)).toEqual([plain.event_id, high.event_id]);
    // The items of before read as they did.
    expect(await getEvent(tenantId, report.event_id)).toEqual({ ...report, content_hash: 'h' });

    expect(await keyEventFiltersOfTenant(tenantId)).toBe(0);
  });

  it("moves with an operator's score: into a band, and out of the bands", async () => {
    const tenantId = systemTenant(randomUUID());
    const low = event(tenantId, 'api', 0.1);
    const high = event(tenantId, 'api', 0.8);
    await writeAll([low, high].map((e) => eventItem({ event: e, contentHash: 'h', expiresAt: 0 })));
    expect(ids((await listEvents(tenantId, { minScore: 0.6 }, page)).events)).toEqual([high.event_id]);

    await transactWrite([
      markProcessedUpdate(tenantId, low, { processed: true, threat_score: 0.95 }, now()),
      markProcessedUpdate(tenantId, high, { processed: false, threat_score: 0.2 }, now()),
    ]);
    expect(ids((await listEvents(tenantId, { minScore: 0.6 }, page)).events)).toEqual([low.event_id]);
    expect((await listEvents(tenantId, { minScore: 0.6, processed: false }, page)).events).toEqual([]);
    expect(ids((await listEvents(tenantId, { minScore: 0.1, processed: false }, page)).events)).toEqual([
      high.event_id,
    ]);
    expect((await getEvent(tenantId, low.event_id))?.threat_factors).toEqual({
      operator_override: { value: 0.95, weight: 1 },
    });
    // The migration finds the keys right.
    expect(await keyEventFiltersOfTenant(tenantId)).toBe(0);
  });
});
