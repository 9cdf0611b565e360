/**
 * Presigned uploads of infrastructure files waiting for their extraction. One item per upload
 * URL handed out, under the tenant's partition, gone when the file is extracted or refused, and
 * removed by TTL (`expires_at`) when nobody calls extract. Readers check `expires_at` themselves:
 * TTL deletes late. A file extracted in the background (too large for a request) is `processing`
 * until the worker stores it (the item goes, in the same transaction) or refuses it (`failed`,
 * with the reason, kept a day for the status to be read).
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import * as keys from './item-keys.js';
import { ConditionFailed, transactWrite, type TransactItem } from './transact.js';
import type { Actor } from '../vocabulary/actor.js';
import type { TenantId } from '../vocabulary/tenant.js';

export interface PendingUpload {
  file_id: string;
  tenant_id: TenantId;
  environment_id: string;
  filename: string;
  /** Where the client PUTs the original. */
  original_key: string;
  /** What the caller said the file will weigh; the stored object decides. */
  declared_size_bytes: number;
  created_by: string;
  created_at: string;
  /** When the upload URL stops working (RFC 3339). */
  upload_expires_at: string;
  /** When the record goes, epoch seconds (TTL). */
  expires_at: number;
  /** Absent while the file waits for its upload or its extract; then the background extraction's state. */
  status?: 'processing' | 'failed';
  /** Why it failed, for the caller. */
  reason?: string;
  /** Who asked for the extraction: the background extraction stores and audits the file as them. */
  requested_by?: Actor;
  status_changed_at?: string;
}

export async function putPendingUpload(upload: PendingUpload): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: { ...keys.pendingUpload(upload.tenant_id, upload.file_id), entity: 'PENDING_UPLOAD', ...upload },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

/** The pending upload, or null when there is none or it has expired. */
export async function getPendingUpload(
  tenantId: TenantId,
  fileId: string,
  nowSeconds = Date.now() / 1000,
): Promise<PendingUpload | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: keys.pendingUpload(tenantId, fileId), ConsistentRead: true }),
  );
  if (!out.Item || Number(out.Item.expires_at) <= nowSeconds) return null;
  const { PK: _pk, SK: _sk, entity: _e, ...upload } = out.Item;
  return upload as PendingUpload;
}

/** Ends the pending state inside the extraction's transaction; fails if it already ended. */
export function consumePendingUpload(upload: PendingUpload): TransactItem {
  return {
    Delete: {
      TableName: TABLE,
      Key: keys.pendingUpload(upload.tenant_id, upload.file_id),
      ConditionExpression: 'attribute_exists(PK)',
    },
  };
}

export async function deletePendingUpload(upload: PendingUpload): Promise<void> {
  await db.send(new DeleteCommand({ TableName: TABLE, Key: keys.pendingUpload(upload.tenant_id, upload.file_id) }));
}

const STATUS = { '#s': 'status' };

/**
 * Hands the file to the background extraction: `processing`, as `requestedBy`, with `alsoWrite`
 * (the outbox message that queues it) in the same transaction. False when it is not waiting any
 * more (another request handed it over, or it is gone): nothing is written.
 */
export async function markPendingProcessing(
  upload: PendingUpload,
  requestedBy: Actor,
  at: string,
  alsoWrite: TransactItem[],
): Promise<boolean> {
  try {
    await transactWrite([
      {
        Update: {
          TableName: TABLE,
          Key: keys.pendingUpload(upload.tenant_id, upload.file_id),
          UpdateExpression: 'SET #s = :processing, requested_by = :actor, status_changed_at = :at',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#s)',
          ExpressionAttributeNames: STATUS,
          ExpressionAttributeValues: { ':processing': 'processing', ':actor': requestedBy, ':at': at },
        },
      },
      ...alsoWrite,
    ]);
    return true;
  } catch (err) {
    if (err instanceof ConditionFailed && err.index === 0) return false;
    throw err;
  }
}

/** The background extraction refused the file: `failed` with why, kept until `expiresAt` (epoch seconds). */
export async function markPendingFailed(
  upload: PendingUpload,
  reason: string,
  at: string,
  expiresAt: number,
): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.pendingUpload(upload.tenant_id, upload.file_id),
        UpdateExpression: 'SET #s = :failed, reason = :reason, status_changed_at = :at, expires_at = :expires',
        ConditionExpression: '#s = :processing',
        ExpressionAttributeNames: STATUS,
        ExpressionAttributeValues: {
          ':failed': 'failed',
          ':processing': 'processing',
          ':reason': reason,
          ':at': at,
          ':expires': expiresAt,
        },
      }),
    );
  } catch (err) {
    // Stored or failed meanwhile (a second delivery of the same message): that outcome stands.
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
  }
}
