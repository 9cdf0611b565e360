/**
 * bin/migrate-event-index.ts: events stored before the processed index (GSI3 held the
 * unprocessed ones) are listed right after the migration, and a second run changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventItem, listEvents, reindexEventsOfTenant, writeAll, type StoredEvent } from '../../shared/db/events.js';
import { newTimeId, now } from '../../shared/ids.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';
import { storedEventAt } from '../support/seed.js';

const tenantId = systemTenant(randomUUID());

function event(processed: boolean): StoredEvent {
  return storedEventAt(tenantId, null, Date.now(), {
    event_id: newTimeId(),
    threat_factors: { type: { value: 0.3, weight: 0.35 } },
    processed,
    processed_at: processed ? now() : null,
  });
}

/** An item as the table held it before: GSI3 while unprocessed, none once processed. */
function oldItem(e: StoredEvent) {
  const {
    GSI3PK: _pk,
    GSI3SK: _sk,
    ...item
  } = eventItem({ event: e, contentHash: 'h', expiresAt: Math.floor(Date.now() / 1000) + 3600 });
  return e.processed ? item : { ...item, GSI3PK: `T#${tenantId}#UNPROCESSED`, GSI3SK: e.event_id };
}

describe('event index migration', () => {
  it('puts processed events in the processed index and takes the others out of GSI3, once', async () => {
    const events = [event(false), event(true), event(false), event(true)];
    await writeAll(events.map(oldItem));
    const page = { limit: 10, offset: 0 };
    expect((await listEvents(tenantId, { processed: true }, page)).events).toEqual([]);

    expect(await reindexEventsOfTenant(tenantId)).toBe(4);
    const processed = (await listEvents(tenantId, { processed: true }, page)).events;
    expect(processed.map((e) => e.event_id)).toEqual([events[3]!.event_id, events[1]!.event_id]);
    const unprocessed = (await listEvents(tenantId, { processed: false }, page)).events;
    expect(unprocessed.map((e) => e.event_id)).toEqual([events[2]!.event_id, events[0]!.event_id]);

    expect(await reindexEventsOfTenant(tenantId)).toBe(0);
  });
});
