/**
 * Events in the single table: one partition per tenant (`T#<tid>#EVENT`) sorted by UUIDv7 event
 * id, so time ranges are key ranges; GSI1 by environment, GSI2 by type, GSI3 (sparse) once
 * processed, GSI4 (sparse, keys only) by a source other than `api` or a high score, GSI5 by store
 * sequence. The item and its keys: shared/db/event-items.ts; pages: shared/db/event-pages.ts.
 * Each stored event goes out to EventBridge through the table's stream (see shared/workers), so
 * storing is the only thing ingest must get right.
 */
import { BatchWriteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { backoff, readItems, type ItemKey, type Prefetched } from './read-batch.js';
import { db, TABLE } from './client.js';
import * as keys from './item-keys.js';
import { chunksByOwner } from './keys.js';
import { forEachEventPage } from './event-backfill.js';
import type { TransactItem } from './transact.js';
import type { TenantId } from '../vocabulary/tenant.js';
import { contentHashOf, eventFilterKeys, eventFromItem, type StoredEvent } from './event-items.js';

export { DOMINANT_SOURCE, eventFromItem, eventItem, type EventRecord, type StoredEvent } from './event-items.js';
export { EVENT_READ_LIMIT, listEvents, type EventPage, type EventQuery } from './event-pages.js';
export { keyEventFiltersOfTenant, reindexEventsOfTenant } from './event-backfill.js';

export async function getEvent(
  tenantId: TenantId,
  eventId: string,
): Promise<(StoredEvent & { content_hash?: string }) | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: keys.event(tenantId, eventId), ConsistentRead: true }),
  );
  return out.Item ? { ...eventFromItem(out.Item), content_hash: contentHashOf(out.Item) } : null;
}

export const eventKey = (tenantId: TenantId, eventId: string): ItemKey => keys.event(tenantId, eventId);

/** Events of a tenant by id, in one round trip per 100; ids without an event are absent from the map. */
export async function getEvents(tenantId: TenantId, eventIds: readonly string[]): Promise<Map<string, StoredEvent>> {
  const read = await readItems(eventIds.map((id) => eventKey(tenantId, id)));
  const found = new Map<string, StoredEvent>();
  for (const id of eventIds) {
    const item = read.get(eventKey(tenantId, id));
    if (item) found.set(id, eventFromItem(item));
  }
  return found;
}

/**
 * Points an event at `to` (an incident id, or null for none) if it still points at `from`: the
 * event side of a link, written with the incident side in one transaction.
 */
export function setEventIncident(
  tenantId: TenantId,
  eventId: string,
  from: string | null,
  to: string | null,
): TransactItem {
  return {
    Update: {
      TableName: TABLE,
      Key: keys.event(tenantId, eventId),
      UpdateExpression: 'SET incident_id = :to',
      ConditionExpression:
        from === null
          ? 'attribute_exists(PK) AND (attribute_not_exists(incident_id) OR incident_id = :null)'
          : 'incident_id = :from',
      ExpressionAttributeValues: from === null ? { ':to': to, ':null': null } : { ':to': to, ':from': from },
    },
  };
}

/** A stored event among items read in one batch, with the hash of what its client sent; null when there is none. */
export function storedEventFrom(
  read: Prefetched,
  tenantId: TenantId,
  eventId: string,
): { hash: string; event: StoredEvent } | null {
  const item = read.get(eventKey(tenantId, eventId));
  return item ? { hash: contentHashOf(item), event: eventFromItem(item) } : null;
}

/**
 * Writes the items, 25 to a BatchWriteItem and the batches at once, and retries what DynamoDB
 * leaves unprocessed, with growing pauses, until all are stored; throws when it cannot (the
 * caller answers an error, so nothing half-written is reported as success).
 */
export async function writeAll(
  items: Record<string, unknown>[],
  options: {
    inOrder?: boolean;
    /** Called with the items of each attempt before it is sent; answers what to send (event sequence numbers renewed). */
    beforeAttempt?: (items: Record<string, unknown>[]) => Promise<Record<string, unknown>[]>;
  } = {},
): Promise<void> {
  // Each chunk of one tenant (a SUPER_ADMIN's batch has several): one call, one set of credentials.
  const chunks = chunksByOwner(items, (item) => String(item.PK), 25);
  if (options.inOrder && chunks.length > 1) {
    // One chunk after the other: the table's stream carries them in this order.
    for (const chunk of chunks) await writeAll(chunk, { beforeAttempt: options.beforeAttempt });
    return;
  }
  // Every chunk is finished before a failure is reported: nothing of this request is still being
  // written when its caller (or a retry taking over) acts on the failure.
  const settled = await Promise.allSettled(
    chunks.map(async (chunk) => {
      let pending = chunk;
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 8) throw new Error(`the table kept refusing ${pending.length} writes; try again`);
        if (attempt > 0) await backoff(attempt);
        if (options.beforeAttempt) pending = await options.beforeAttempt(pending);
        const out = await db.send(
          new BatchWriteCommand({ RequestItems: { [TABLE]: pending.map((Item) => ({ PutRequest: { Item } })) } }),
        );
        pending = ((out.UnprocessedItems?.[TABLE] ?? []) as { PutRequest: { Item: Record<string, unknown> } }[]).map(
          (r) => r.PutRequest.Item,
        );
      }
    }),
  );
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * The update that marks an event processed (or not): the flag and its time and the processed
 * index entry (GSI3), put or removed, and an operator's threat score (its band's key, GSI4, moved
 * with it) and incident when given. Only for an event that exists; a new incident only if the
 * event still names the one `current` (the event as read) names (the incident side of the link
 * is written in the same transaction).
 */
export function markProcessedUpdate(
  tenantId: TenantId,
  current: StoredEvent,
  update: { processed: boolean; threat_score?: number; incident_id?: string | null },
  at: string,
): TransactItem {
  const eventId = current.event_id;
  // Every attribute by placeholder: `processed` is a reserved word in DynamoDB expressions.
  const names: Record<string, string> = { '#processed': 'processed', '#processedAt': 'processed_at' };
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const removes: string[] = [];
  if (update.processed) {
    const processed = keys.eventProcessed(tenantId, eventId);
    sets.push('#processed = :processed', '#processedAt = :at', 'GSI3PK = :g3pk', 'GSI3SK = :g3sk');
    Object.assign(values, { ':processed': true, ':at': at, ':g3pk': processed.GSI3PK, ':g3sk': processed.GSI3SK });
  } else {
    // Unprocessed is the item without them (as ingest stores it).
    removes.push('#processed', '#processedAt', 'GSI3PK', 'GSI3SK');
  }
  if (update.threat_score !== undefined) {
    names['#score'] = 'threat_score';
    names['#factors'] = 'threat_factors';
    sets.push('#score = :score');
    values[':score'] = update.threat_score;
    if (current.threat_factors) {
      sets.push('#factors.operator_override = :override');
      values[':override'] = [update.threat_score, 1];
    } else {
      // No computed factors to extend: start the map.
      sets.push('#factors = :factors');
      values[':factors'] = { operator_override: [update.threat_score, 1] };
    }
    // The score's band may change: the filters' key (GSI4) follows.
    const filter = eventFilterKeys(tenantId, { ...current, threat_score: update.threat_score });
    if (filter) {
      sets.push('GSI4PK = :g4pk', 'GSI4SK = :g4sk');
      Object.assign(values, { ':g4pk': filter.GSI4PK, ':g4sk': filter.GSI4SK });
    } else removes.push('GSI4PK', 'GSI4SK');
  }
  let condition = 'attribute_exists(PK)';
  if (update.incident_id !== undefined) {
    names['#incident'] = 'incident_id';
    sets.push('#incident = :incident');
    values[':incident'] = update.incident_id;
    if (current.incident_id === null) {
      condition += ' AND (attribute_not_exists(#incident) OR #incident = :none)';
      values[':none'] = null;
    } else {
      condition += ' AND #incident = :was';
      values[':was'] = current.incident_id;
    }
  }
  const clauses = [
    ...(sets.length > 0 ? [`SET ${sets.join(', ')}`] : []),
    ...(removes.length > 0 ? [`REMOVE ${removes.join(', ')}`] : []),
  ];
  return {
    Update: {
      TableName: TABLE,
      Key: keys.event(tenantId, eventId),
      UpdateExpression: clauses.join(' '),
      ConditionExpression: condition,
      ExpressionAttributeNames: names,
      ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
    },
  };
}

/**
 * Sets each of the tenant's events' TTL to `expiryOf(event_id)` where it differs (a plan change:
 * the `retention-restamp` worker). One Query of the tenant's event partition and an UpdateItem per
 * event to change, only while the event exists; doing it again changes nothing. The items are read
 * whole (a projection would cost the same read units: they are counted on the items' size) and
 * each changed chunk goes to `stamped` with its new TTL, for what expires with the events (their
 * mention index items). Returns how many it changed.
 */
export async function restampEventExpiry(
  tenantId: TenantId,
  expiryOf: (eventId: string) => number,
  stamped: (events: { event: StoredEvent; expiresAt: number }[]) => Promise<unknown>,
): Promise<number> {
  let changed = 0;
  await forEachEventPage(tenantId, async (items) => {
    const stale = items.filter((item) => item.expires_at !== expiryOf(String(item.SK)));
    for (let i = 0; i < stale.length; i += 25) {
      const chunk = stale
        .slice(i, i + 25)
        .map((item) => ({ event: eventFromItem(item), expiresAt: expiryOf(String(item.SK)) }));
      const kept = await Promise.all(
        chunk.map(({ event, expiresAt }) =>
          db
            .send(
              new UpdateCommand({
                TableName: TABLE,
                Key: keys.event(tenantId, event.event_id),
                UpdateExpression: 'SET #ttl = :ttl',
                ConditionExpression: 'attribute_exists(PK)',
                ExpressionAttributeNames: { '#ttl': 'expires_at' },
                ExpressionAttributeValues: { ':ttl': expiresAt },
              }),
            )
            .then(
              () => true,
              (err: unknown) => {
                // Deleted meanwhile (its TTL ran): nothing to stamp, and nothing expires with it.
                if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
                return false;
              },
            ),
        ),
      );
      await stamped(chunk.filter((_, j) => kept[j]));
    }
    changed += stale.length;
  });
  return changed;
}
