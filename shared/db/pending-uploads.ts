/**
 * Presigned uploads of infrastructure files waiting for their extraction. One item per upload
 * URL handed out, under the tenant's partition, gone when the file is extracted or refused, and
 * removed by TTL (`expires_at`) when nobody calls extract. Readers check `expires_at` themselves:
 * TTL deletes late.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import { keys } from './keys.js';
import type { TransactItem } from './transact.js';
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
