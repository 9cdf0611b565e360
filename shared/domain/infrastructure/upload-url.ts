/**
 * Files larger than a request may carry: the client asks for an upload URL, PUTs the file
 * straight to S3, then asks for the extraction (presigned.ts). Between the two a pending-upload
 * item remembers the file id, its environment and name; it lives a day (the URL itself 15
 * minutes). Its own module: issuing a URL parses no geometry, so its bundle carries no parser.
 */
import { presignPut } from '../../adapters/s3.js';
import { putPendingUpload } from '../../db/pending-uploads.js';
import { invalid } from '../../errors.js';
import { newTimeId, now } from '../../ids.js';
import { MAX_PRESIGNED_UPLOAD_BYTES } from '../../schemas/infrastructure.js';
import type { uploadUrlRequest } from '../../schemas/infrastructure.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { Actor } from '../actor.js';
import { findStoredEnvironment } from '../sites/index.js';
import { baseName, formatFromFilename } from './formats.js';
import { fileObjectPrefix, originalObjectKey } from './storage.js';
import type { TenantId } from '../../vocabulary/tenant.js';

export const UPLOAD_URL_TTL_SECONDS = 15 * 60;
export const PENDING_UPLOAD_TTL_SECONDS = 24 * 60 * 60;

export type UploadUrlRequest = InputOf<typeof uploadUrlRequest>;

export interface UploadUrl {
  file_id: string;
  upload_url: string;
  method: 'PUT';
  headers: Record<string, string>;
  expires_at: string;
  max_bytes: number;
}

export async function createUploadUrl(
  actor: Actor,
  environmentId: string,
  tenantId: TenantId,
  request: UploadUrlRequest,
): Promise<UploadUrl> {
  const env = await findStoredEnvironment(tenantId, environmentId);
  const filename = baseName(request.filename);
  if (!formatFromFilename(filename)) {
    throw invalid(['body', 'filename'], 'must end in .kml, .kmz, .geojson, .json or .zip', 'file_type');
  }
  const fileId = newTimeId();
  const originalKey = originalObjectKey(fileObjectPrefix(env.tenant_id, env.environment_id, fileId), filename);
  const createdAt = now();
  const issued = Date.parse(createdAt);
  const expiresAt = new Date(issued + UPLOAD_URL_TTL_SECONDS * 1000).toISOString();
  // The length is signed: S3 takes exactly the announced number of bytes.
  const url = await presignPut(originalKey, UPLOAD_URL_TTL_SECONDS, request.size_bytes);
  await putPendingUpload({
    file_id: fileId,
    tenant_id: env.tenant_id,
    environment_id: env.environment_id,
    filename,
    original_key: originalKey,
    declared_size_bytes: request.size_bytes,
    created_by: actor.principal?.userId ?? '',
    created_at: createdAt,
    upload_expires_at: expiresAt,
    expires_at: Math.floor(issued / 1000) + PENDING_UPLOAD_TTL_SECONDS,
  });
  return {
    file_id: fileId,
    upload_url: url,
    method: 'PUT',
    headers: { 'Content-Length': String(request.size_bytes) },
    expires_at: expiresAt,
    max_bytes: MAX_PRESIGNED_UPLOAD_BYTES,
  };
}
