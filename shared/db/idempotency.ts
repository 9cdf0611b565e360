/**
 * Idempotency records (`IDEMPOTENCY`, one per tenant, route and key): the storage side of
 * shared/domain/idempotency.ts. A record is IN_PROGRESS with the request's hash, then COMPLETE
 * with the answer; DynamoDB deletes it after `expires_at`.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import { keys } from './keys.js';

export type IdempotencyKey = ReturnType<typeof keys.idempotency>;

/** The record of `key` for one tenant and route. */
export const idempotencyKeyOf = (tenantId: string, scope: string, key: string): IdempotencyKey => keys.idempotency(tenantId, scope, key);

export interface IdempotencyRecord {
  status: 'IN_PROGRESS' | 'COMPLETE';
  request_hash: string;
  response_status?: number;
  response_body?: string;
}

/**
 * Claims the key for a run: true when the record was absent, expired, or left IN_PROGRESS by a
 * run that started before `staleBefore` (ms); false when another run holds it or it is complete.
 */
export async function claimIdempotencyKey(key: IdempotencyKey, requestHash: string, nowMs: number, staleBefore: number, ttlSeconds: number): Promise<boolean> {
  const nowSeconds = Math.floor(nowMs / 1000);
  try {
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: { ...key, entity: 'IDEMPOTENCY', status: 'IN_PROGRESS', request_hash: requestHash, started_at: nowMs, expires_at: nowSeconds + ttlSeconds },
        ConditionExpression: 'attribute_not_exists(PK) OR expires_at < :nowSeconds OR (#status = :running AND started_at < :stale)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':nowSeconds': nowSeconds, ':running': 'IN_PROGRESS', ':stale': staleBefore },
      }),
    );
    return true;
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    return false;
  }
}

export async function getIdempotencyRecord(key: IdempotencyKey): Promise<IdempotencyRecord | null> {
  const item = (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item;
  return item ? (item as IdempotencyRecord) : null;
}

/** Gives the key up after a failed run, so a retry runs afresh. */
export async function releaseIdempotencyKey(key: IdempotencyKey): Promise<void> {
  await db.send(new DeleteCommand({ TableName: TABLE, Key: key }));
}

export async function completeIdempotencyKey(key: IdempotencyKey, status: number, body: unknown): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: key,
      UpdateExpression: 'SET #status = :done, response_status = :status, response_body = :body',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':done': 'COMPLETE', ':status': status, ':body': JSON.stringify(body) },
    }),
  );
}
