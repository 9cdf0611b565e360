/**
 * One-off migrations of a tenant's stored events to today's keys (bin/migrate-event-index.ts,
 * bin/migrate-event-filter-keys.ts): each reads the tenant's event partition page by page and
 * updates only the events whose keys differ, so a second run changes nothing.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import * as keys from './item-keys.js';
import { tenantPk } from './keys.js';
import { forEachPage } from './query.js';
import { eventFilterKeys, eventFromItem } from './event-items.js';
import type { TenantId } from '../vocabulary/tenant.js';

/** Each page of a tenant's event partition (its items whole, oldest first), one after the other. */
export async function forEachEventPage(
  tenantId: TenantId,
  onPage: (items: Record<string, unknown>[]) => Promise<void>,
): Promise<void> {
  await forEachPage(
    {
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.event(tenantId, '').PK },
    },
    (page) => onPage(page.Items ?? []),
  );
}

/**
 * Moves a tenant's events stored before the processed index (GSI3 held the unprocessed ones,
 * `T#tid#UNPROCESSED`) to today's keys: processed events enter `T#tid#PROCESSED`, unprocessed
 * ones leave GSI3. Idempotent: a second run finds nothing to change. Returns the events changed.
 */
export async function reindexEventsOfTenant(tenantId: TenantId): Promise<number> {
  const old = `${tenantPk(tenantId)}#UNPROCESSED`;
  let changed = 0;
  await forEachPage(
    {
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk',
      FilterExpression: 'GSI3PK = :old OR (#processed = :true AND attribute_not_exists(GSI3PK))',
      ExpressionAttributeNames: { '#processed': 'processed' },
      ExpressionAttributeValues: { ':pk': keys.event(tenantId, '').PK, ':old': old, ':true': true },
      ProjectionExpression: 'SK, #processed',
    },
    async (page) => {
      for (const item of page.Items ?? []) {
        const eventId = String(item.SK);
        const processed = item.processed === true;
        const index = keys.eventProcessed(tenantId, eventId);
        await db.send(
          new UpdateCommand({
            TableName: TABLE,
            Key: keys.event(tenantId, eventId),
            UpdateExpression: processed ? 'SET GSI3PK = :g3pk, GSI3SK = :g3sk' : 'REMOVE GSI3PK, GSI3SK',
            ConditionExpression: 'attribute_exists(PK)',
            ...(processed ? { ExpressionAttributeValues: { ':g3pk': index.GSI3PK, ':g3sk': index.GSI3SK } } : {}),
          }),
        );
        changed++;
      }
    },
  );
  return changed;
}

/**
 * Gives a tenant's events stored before the filters' index (GSI4: a source other than `api`, a
 * score of 0.5 or more) their keys there, so `GET /events?source=` and `?min_score=` find them;
 * an event whose key is already right is left alone. The items stay as they were stored (they
 * read as the compact ones do). Idempotent: a second run finds nothing to change. Returns the
 * events changed.
 */
export async function keyEventFiltersOfTenant(tenantId: TenantId): Promise<number> {
  let changed = 0;
  await forEachEventPage(tenantId, async (items) => {
    for (const item of items) {
      // The sequence's given-up ranges share the partition.
      if (item.entity !== 'EVENT') continue;
      const wanted = eventFilterKeys(tenantId, eventFromItem(item));
      if (wanted?.GSI4PK === item.GSI4PK && wanted?.GSI4SK === item.GSI4SK) continue;
      // Only while the score is the one read: an operator's new score moved the key itself.
      const score = typeof item.threat_score === 'number' ? item.threat_score : null;
      const sameScore = score === null ? 'attribute_not_exists(#score) OR #score = :null' : '#score = :score';
      try {
        await db.send(
          new UpdateCommand({
            TableName: TABLE,
            Key: keys.event(tenantId, String(item.SK)),
            UpdateExpression: wanted ? 'SET GSI4PK = :pk, GSI4SK = :sk' : 'REMOVE GSI4PK, GSI4SK',
            ConditionExpression: `attribute_exists(PK) AND (${sameScore})`,
            ExpressionAttributeNames: { '#score': 'threat_score' },
            ExpressionAttributeValues: {
              ...(wanted ? { ':pk': wanted.GSI4PK, ':sk': wanted.GSI4SK } : {}),
              ...(score === null ? { ':null': null } : { ':score': score }),
            },
          }),
        );
      } catch (err) {
        if ((err as { name?: string }).name === 'ConditionalCheckFailedException') continue;
        throw err;
      }
      changed++;
    }
  });
  return changed;
}
