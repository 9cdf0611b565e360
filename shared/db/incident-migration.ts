/**
 * Moving incidents stored before the timeline items and the list rows (bin/migrate-incident-list.ts):
 * for each incident still in the old directory index (GSI1 `T#tid#INCIDENTS`), its timeline's
 * entries of before become items (version 0, in their order), its list rows are put, and one
 * transaction, under its version, keeps only the status changes on the item, marks it listed,
 * takes it out of the old indexes and counts it in its scopes. Idempotent: a migrated incident is
 * no longer in the old index, and every put rewrites the same keys.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import { allRowsOf, deleteRows, listChange, putRows, type Listed } from './incident-list.js';
import { writeAll } from './events.js';
import { entriesOnItem, summaryOf, TIMELINE_LAYOUT, timelineItem, type HistoryEntry } from './incident-timeline.js';
import * as keys from './item-keys.js';
import { readItems } from './read-batch.js';
import { ConditionFailed, transactWrite } from './transact.js';

/** Migrates a tenant's incidents of before; answers how many it moved. */
export async function migrateIncidentsOfTenant(tenantId: string): Promise<number> {
  const { GSI1PK } = keys.incidentDirectory(tenantId, '');
  let moved = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.send(
      new QueryCommand({
        TableName: TABLE,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': GSI1PK },
        ProjectionExpression: 'PK, SK, incident_id',
        Limit: 100,
        ExclusiveStartKey: start,
      }),
    );
    for (const ref of out.Items ?? []) if (await migrateIncident(tenantId, String(ref.incident_id))) moved++;
    start = out.LastEvaluatedKey;
  } while (start);
  return moved;
}

/** One incident; false when it was migrated already (or is gone). Tried again on a concurrent change. */
async function migrateIncident(tenantId: string, incidentId: string): Promise<boolean> {
  const key = keys.incident(tenantId, incidentId);
  let putBefore: { as: Listed; version: number } | null = null;
  for (let attempt = 0; attempt < 5; attempt++) {
    const item = (await readItems([key])).get(key);
    if (!item || item.layout === TIMELINE_LAYOUT) return false;
    const history = (Array.isArray(item.history) ? item.history : []) as HistoryEntry[];
    const version = Number(item.version);
    const listed = item as unknown as Listed;
    // Rows put for the state a concurrent change replaced: those it does not keep go.
    if (putBefore) await deleteRows(listChange(putBefore.as, listed, putBefore.version).deletes, putBefore.version);
    const before = history.slice(0, entriesOnItem(item));
    await writeAll(before.map((e, i) => timelineItem(tenantId, incidentId, 0, i, e)));
    await putRows(allRowsOf(listed), version + 1);
    putBefore = { as: listed, version: version + 1 };
    try {
      await transactWrite([
        {
          Update: {
            TableName: TABLE,
            Key: key,
            UpdateExpression:
              'SET history = :summary, layout = :layout, version = version + :one REMOVE timeline_split, GSI1PK, GSI1SK, GSI2PK, GSI2SK, GSI3PK, GSI3SK',
            ConditionExpression: 'version = :v AND attribute_not_exists(layout)',
            ExpressionAttributeValues: {
              ':summary': summaryOf(history),
              ':layout': TIMELINE_LAYOUT,
              ':one': 1,
              ':v': version,
            },
          },
        },
        ...listChange(null, listed, version + 1).counts,
      ]);
      return true;
    } catch (err) {
      if (!(err instanceof ConditionFailed)) throw err;
    }
  }
  throw new Error(`incident ${incidentId} kept changing while it was migrated; run the migration again`);
}
