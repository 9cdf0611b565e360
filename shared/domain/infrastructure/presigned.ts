/**
 * Files larger than a request may carry: the client asks for an upload URL, PUTs the file
 * straight to S3, then asks for the extraction. Between the two a pending-upload item remembers
 * the file id, its environment and name; it lives a day (the URL itself 15 minutes). A file
 * refused at extraction (unreadable, too large) is deleted with its pending item: nothing stays.
 */
import { deleteObjectsUnder, getObjectBytes, headObject, presignPut } from '../../adapters/s3.js';
import {
  consumePendingUpload,
  deletePendingUpload,
  getPendingUpload,
  putPendingUpload,
  type PendingUpload,
} from '../../db/pending-uploads.js';
import { getSiteEntity, SITE_KINDS } from '../../db/site-entities.js';
import { ConflictError, HttpError, invalid, NotFoundError, PayloadTooLargeError } from '../../http/errors.js';
import { newTimeId, now } from '../../ids.js';
import { MAX_PRESIGNED_UPLOAD_BYTES } from '../../schemas/infrastructure.js';
import type { Actor } from '../actor.js';
import { findStoredEnvironment } from '../environments.js';
import { extractOrRefuse } from './extract.js';
import { baseName, formatFromFilename } from './formats.js';
import { fileObjectPrefix, FILE_NOT_FOUND, originalObjectKey, storeFile, type InfrastructureFile } from './storage.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { uploadUrlRequest } from '../../schemas/infrastructure.js';

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
  requestedTenant: string | undefined,
  request: UploadUrlRequest,
): Promise<UploadUrl> {
  const env = await findStoredEnvironment(actor, environmentId, requestedTenant);
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

/**
 * Extracts a file uploaded through an upload URL. 404 for an id that is unknown, expired, of
 * another environment or tenant; 409 when nothing was uploaded yet or it was extracted already.
 */
export async function extractUploadedFile(
  actor: Actor,
  environmentId: string,
  fileId: string,
  requestedTenant: string | undefined,
): Promise<InfrastructureFile> {
  const env = await findStoredEnvironment(actor, environmentId, requestedTenant);
  const pending = await getPendingUpload(env.tenant_id, fileId);
  if (!pending || pending.environment_id !== env.environment_id) {
    const stored = await getSiteEntity<{ environment_id: string }>(SITE_KINDS.file, env.tenant_id, fileId);
    if (stored && stored.environment_id === env.environment_id) throw new ConflictError('This file has been extracted already');
    throw new NotFoundError(FILE_NOT_FOUND);
  }
  const object = await headObject(pending.original_key);
  if (!object) throw new ConflictError('Nothing has been uploaded for this file yet: PUT it to its upload URL first');
  if (object.sizeBytes > MAX_PRESIGNED_UPLOAD_BYTES) {
    await discard(pending);
    throw new PayloadTooLargeError(`The uploaded file is larger than ${MAX_PRESIGNED_UPLOAD_BYTES} bytes; it was deleted`);
  }
  const data = await getObjectBytes(pending.original_key);
  if (!data) throw new ConflictError('Nothing has been uploaded for this file yet: PUT it to its upload URL first');
  let extraction;
  try {
    extraction = await extractOrRefuse(pending.filename, data, ['path', 'file_id']);
  } catch (err) {
    // Refused (422, 413): the upload goes, so a refused file leaves nothing behind.
    if (err instanceof HttpError && err.status < 500) await discard(pending);
    throw err;
  }
  return storeFile(actor, env, {
    fileId,
    filename: pending.filename,
    sizeBytes: data.length,
    originalKey: pending.original_key,
    extraction,
    via: 'upload_url',
    alsoWrite: [consumePendingUpload(pending)],
  });
}

async function discard(pending: PendingUpload): Promise<void> {
  await deleteObjectsUnder(fileObjectPrefix(pending.tenant_id, pending.environment_id, pending.file_id));
  await deletePendingUpload(pending);
}
