/**
 * Time-sorted timer partitions (the SLA timers, the workflow timers): one partition per kind, the
 * sort key starting with the ISO time it is due, so what is due is one key-range query.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';

/**
 * Up to `limit` items of partition `pk` due at or before `at`, earliest first, after the key
 * `after` (the last of the previous page). ISO instants of one length sort as text, and `$`
 * follows the `#` that ends the time in a key, so `SK < "<at>$"` is "due at or before `at`".
 */
export async function dueItems(
  pk: string,
  at: string,
  limit: number,
  after?: { PK: string; SK: string },
): Promise<Record<string, unknown>[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND SK < :upper',
      ExpressionAttributeValues: { ':pk': pk, ':upper': `${at}$` },
      ScanIndexForward: true,
      ConsistentRead: true,
      Limit: limit,
      ExclusiveStartKey: after,
    }),
  );
  return out.Items ?? [];
}
