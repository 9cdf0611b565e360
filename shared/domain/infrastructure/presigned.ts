/**
 * The second step for files larger than a request may carry (the first is upload-url.ts): the
 * client has PUT the file straight to S3 and asks for the extraction. A file refused at
 * extraction (unreadable, too large) is deleted with its pending item: nothing stays.
 */
import { deleteObjectsUnder, getObjectBytes, headObject } from '../../adapters/s3.js';
import {
  consumePendingUpload,
  deletePendingUpload,
  getPendingUpload,
  type PendingUpload,
} from '../../db/pending-uploads.js';
import { getSiteEntity, SITE_KINDS } from '../../db/site-entities.js';
import { ConflictError, isRefusal, NotFoundError, PayloadTooLargeError } from '../../errors.js';
import { MAX_PRESIGNED_UPLOAD_BYTES } from '../../schemas/infrastructure.js';
import type { Actor } from '../actor.js';
import { findStoredEnvironment } from '../sites/index.js';
import { extractOrRefuse } from './extract.js';
import { fileObjectPrefix, FILE_NOT_FOUND, storeFile, type InfrastructureFile } from './storage.js';
import type { TenantId } from '../../vocabulary/tenant.js';

/**
 * Extracts a file uploaded through an upload URL. 404 for an id that is unknown, expired, of
 * another environment or tenant; 409 when nothing was uploaded yet or it was extracted already.
 */
export async function extractUploadedFile(
  actor: Actor,
  environmentId: string,
  fileId: string,
  tenantId: TenantId,
): Promise<InfrastructureFile> {
  const env = await findStoredEnvironment(tenantId, environmentId);
  const pending = await getPendingUpload(env.tenant_id, fileId);
  if (!pending || pending.environment_id !== env.environment_id) {
    const stored = await getSiteEntity<{ environment_id: string }>(SITE_KINDS.file, env.tenant_id, fileId);
    if (stored && stored.environment_id === env.environment_id)
      throw new ConflictError('This file has been extracted already');
    throw new NotFoundError(FILE_NOT_FOUND);
  }
  const object = await headObject(pending.original_key);
  if (!object) throw new ConflictError('Nothing has been uploaded for this file yet: PUT it to its upload URL first');
  if (object.sizeBytes > MAX_PRESIGNED_UPLOAD_BYTES) {
    await discard(pending);
    throw new PayloadTooLargeError(
      `The uploaded file is larger than ${MAX_PRESIGNED_UPLOAD_BYTES} bytes; it was deleted`,
    );
  }
  const data = await getObjectBytes(pending.original_key);
  if (!data) throw new ConflictError('Nothing has been uploaded for this file yet: PUT it to its upload URL first');
  let extraction;
  try {
    extraction = await extractOrRefuse(pending.filename, data, ['path', 'file_id']);
  } catch (err) {
    // Refused (422, 413): the upload goes, so a refused file leaves nothing behind.
    if (isRefusal(err)) await discard(pending);
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
