/**
 * Idempotency records (`IDEMPOTENCY`, one per tenant, route and key): the storage side of
 * shared/domain/requests/idempotency.ts. A record holds the request's hash and the time its first attempt
 * began (what the request's ids are made from); an attempt holds it IN_PROGRESS for a lease (the
 * invocation's remaining time), leaves it FAILED or COMPLETE (with the answer, or without when
 * the answer is made again from what was stored). DynamoDB deletes it after `expires_at`.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import * as keys from './item-keys.js';

export type IdempotencyKey = ReturnType<typeof keys.idempotency>;

/** The record of `key` for one tenant and route. */
export const idempotencyKeyOf = (tenantId: string, scope: string, key: string): IdempotencyKey =>
  keys.idempotency(tenantId, scope, key);

export interface IdempotencyRecord {
  status: 'IN_PROGRESS' | 'FAILED' | 'COMPLETE';
  request_hash: string;
  /** When the first attempt began (ms). Records written before it existed: `started_at`. */
  first_at?: number;
  /** When the current (or last) attempt began (ms). */
  started_at: number;
  /** Until when (ms) the current attempt may still be running. Older records: none. */
  lease_until?: number;
  response_status?: number;
  response_body?: string;
}

export const firstAtOf = (record: IdempotencyRecord): number => Number(record.first_at ?? record.started_at);

const isConditionFailure = (err: unknown) => (err as Error).name === 'ConditionalCheckFailedException';

/** A record IN_PROGRESS from before leases, older than this, belongs to a run that died. */
const LEGACY_STALE_MS = 60_000;

/**
 * Starts an attempt at `nowMs`, holding the key until `leaseUntil`: a new record (none, or an
 * expired one), or the takeover of a record of the same body whose last attempt failed or
 * outlived its lease. Returns the record as it was before (null for a new one); undefined when
 * the key is not to be had (another attempt holds it, it is complete, or the body differs).
 */
export async function startAttempt(
  key: IdempotencyKey,
  requestHash: string,
  nowMs: number,
  leaseUntil: number,
  ttlSeconds: number,
): Promise<{ previous: IdempotencyRecord | null } | undefined> {
  const nowSeconds = Math.floor(nowMs / 1000);
  try {
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: {
          ...key,
          entity: 'IDEMPOTENCY',
          status: 'IN_PROGRESS',
          request_hash: requestHash,
          first_at: nowMs,
          started_at: nowMs,
          lease_until: leaseUntil,
          expires_at: nowSeconds + ttlSeconds,
        },
        ConditionExpression: 'attribute_not_exists(PK) OR expires_at < :nowSeconds',
        ExpressionAttributeValues: { ':nowSeconds': nowSeconds },
      }),
    );
    return { previous: null };
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
  try {
    const out = await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: key,
        UpdateExpression: 'SET #status = :running, started_at = :now, lease_until = :lease',
        ConditionExpression:
          'request_hash = :hash AND (#status = :failed OR (#status = :running AND (lease_until < :now OR (attribute_not_exists(lease_until) AND started_at < :legacyStale))))',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':running': 'IN_PROGRESS',
          ':failed': 'FAILED',
          ':now': nowMs,
          ':lease': leaseUntil,
          ':hash': requestHash,
          ':legacyStale': nowMs - LEGACY_STALE_MS,
        },
        ReturnValues: 'ALL_OLD',
      }),
    );
    return { previous: out.Attributes as IdempotencyRecord };
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    return undefined;
  }
}

export async function getIdempotencyRecord(key: IdempotencyKey): Promise<IdempotencyRecord | null> {
  const item = (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item;
  return item ? (item as IdempotencyRecord) : null;
}

/** Marks the attempt begun at `startedAt` failed, so a retry takes over at once (not after its lease). */
export async function failAttempt(key: IdempotencyKey, startedAt: number): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: key,
        UpdateExpression: 'SET #status = :failed',
        ConditionExpression: '#status = :running AND started_at = :mine',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':failed': 'FAILED', ':running': 'IN_PROGRESS', ':mine': startedAt },
      }),
    );
  } catch (err) {
    // Taken over meanwhile: the newer attempt owns the record.
    if (!isConditionFailure(err)) throw err;
  }
}

/** Completes the key with the answer's status, and its body unless the answer is made again from what was stored. */
export async function completeAttempt(key: IdempotencyKey, status: number, body?: unknown): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: key,
      UpdateExpression:
        body === undefined
          ? 'SET #status = :done, response_status = :status REMOVE response_body'
          : 'SET #status = :done, response_status = :status, response_body = :body',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':done': 'COMPLETE',
        ':status': status,
        ...(body === undefined ? {} : { ':body': JSON.stringify(body) }),
      },
    }),
  );
}
