/**
 * Fixed windows of the developer API's callers (a key's minute and month, docs/developer-api.md),
 * under the rate counters' partitions (`keys.rateWindow`); apart from shared/db/rate-limits.ts so
 * that only the developer functions carry them.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import * as keys from './item-keys.js';

/**
 * Counts one call in a caller's fixed window (`name` and window start: `keys.rateWindow`), only
 * while it holds fewer than `limit` (null: no limit). Returns the window's calls so far, this one
 * included, or null when the limit refused it (and nothing was counted). One UpdateItem.
 */
export async function countWindow(
  name: string,
  caller: string,
  windowStart: number,
  limit: number | null,
  expiresAt: number,
): Promise<number | null> {
  try {
    const out = await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.rateWindow(name, caller, windowStart),
        UpdateExpression: 'ADD hits :one SET expires_at = if_not_exists(expires_at, :exp)',
        ...(limit !== null ? { ConditionExpression: 'attribute_not_exists(hits) OR hits < :limit' } : {}),
        ExpressionAttributeValues: { ':one': 1, ':exp': expiresAt, ...(limit !== null ? { ':limit': limit } : {}) },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(out.Attributes?.hits ?? 0);
  } catch (err) {
    if ((err as Error).name === 'ConditionalCheckFailedException') return null;
    throw err;
  }
}

/** The calls a caller's fixed window holds, without counting one. */
export async function peekWindow(name: string, caller: string, windowStart: number): Promise<number> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: keys.rateWindow(name, caller, windowStart), ConsistentRead: true }),
  );
  return Number(out.Item?.hits ?? 0);
}
