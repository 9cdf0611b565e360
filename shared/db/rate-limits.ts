/** Fixed-window counters for per-IP rate limits: one item per caller and window, gone by TTL. */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import { keys } from './keys.js';

/** Counts one call in the window and returns the calls counted so far, this one included. */
export async function countCall(name: string, caller: string, windowStart: number, expiresAt: number): Promise<number> {
  const out = await db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: keys.rateWindow(name, caller, windowStart),
      UpdateExpression: 'ADD hits :one SET expires_at = if_not_exists(expires_at, :exp)',
      ExpressionAttributeValues: { ':one': 1, ':exp': expiresAt },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(out.Attributes?.hits ?? 1);
}
