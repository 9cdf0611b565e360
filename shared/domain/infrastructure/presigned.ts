/**
 * The second step for files larger than a request may carry (the first is upload-url.ts): the
 * client has PUT the file straight to S3 and asks for the extraction. A file the request can
 * extract is extracted now; one beyond the request's budget (budget.ts: a KML or GeoJSON by its
 * size, unread; a KMZ or zipped shapefile as it is unpacked) is handed to the
 * background extraction (background.ts): marked `processing` with an outbox message in the same
 * transaction, which the table's stream publishes and a bus rule puts on the `map-extractions`
 * queue; it is followed by its
 * status (status.ts). A file refused at extraction (unreadable, too large) is deleted with its
 * pending item: nothing stays.
 */
import { deleteObjectsUnder, getObjectBytes, headObject } from '../../adapters/s3.js';
import {
  consumePendingUpload,
  deletePendingUpload,
  getPendingUpload,
  markPendingProcessing,
  type PendingUpload,
} from '../../db/pending-uploads.js';
import type { StoredEnvironment } from '../../db/environments.js';
import { outboxPut } from '../../db/outbox.js';
import { getSiteEntity, SITE_KINDS } from '../../db/site-entities.js';
import { ConflictError, isRefusal, NotFoundError, PayloadTooLargeError } from '../../errors.js';
import { now } from '../../ids.js';
import { MAX_PRESIGNED_UPLOAD_BYTES } from '../../schemas/infrastructure.js';
import type { Actor } from '../actor.js';
import { findStoredEnvironment } from '../sites/index.js';
import { BeyondRequestBudget, requestBudget } from './budget.js';
import { extractOrRefuse, type Extraction } from './extract.js';
import { formatFromFilename } from './formats.js';
import { pendingStatus, type FileStatus } from './status.js';
import { fileObjectPrefix, FILE_NOT_FOUND, storeFile, type InfrastructureFile } from './storage.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { EXTRACTION_REQUESTED, INFRASTRUCTURE_SOURCE } from '../../vocabulary/bus.js';

/** What the message handing a file to the background extraction says (its `detail`). */
export interface ExtractionMessage {
  tenant_id: string;
  environment_id: string;
  file_id: string;
}

/** Stored now (201), or handed to the background extraction (202 with its status). */
export type ExtractOutcome = { stored: InfrastructureFile } | { queued: FileStatus };

/**
 * Extracts a file uploaded through an upload URL. 404 for an id that is unknown, expired, of
 * another environment or tenant; 409 when nothing was uploaded yet, it was extracted already, or
 * its background extraction failed.
 */
export async function extractUploadedFile(
  actor: Actor,
  environmentId: string,
  fileId: string,
  tenantId: TenantId,
): Promise<ExtractOutcome> {
  const env = await findStoredEnvironment(tenantId, environmentId);
  const pending = await getPendingUpload(env.tenant_id, fileId);
  if (!pending || pending.environment_id !== env.environment_id) {
    const stored = await getSiteEntity<{ environment_id: string }>(SITE_KINDS.file, env.tenant_id, fileId);
    if (stored && stored.environment_id === env.environment_id)
      throw new ConflictError('This file has been extracted already');
    throw new NotFoundError(FILE_NOT_FOUND);
  }
  if (pending.status === 'processing') return { queued: pendingStatus(pending) };
  if (pending.status === 'failed') throw new ConflictError(`The extraction of this file failed: ${pending.reason}`);
  const object = await headObject(pending.original_key);
  if (!object) throw new ConflictError('Nothing has been uploaded for this file yet: PUT it to its upload URL first');
  if (object.sizeBytes > MAX_PRESIGNED_UPLOAD_BYTES) {
    await discard(pending);
    throw new PayloadTooLargeError(
      `The uploaded file is larger than ${MAX_PRESIGNED_UPLOAD_BYTES} bytes; it was deleted`,
    );
  }
  // A KML or GeoJSON text past the budget is not even read here.
  const format = formatFromFilename(pending.filename);
  if ((format === 'kml' || format === 'geojson') && object.sizeBytes > requestBudget(format))
    return { queued: await handOver(actor, pending) };
  const data = await getObjectBytes(pending.original_key);
  if (!data) throw new ConflictError('Nothing has been uploaded for this file yet: PUT it to its upload URL first');
  let extraction;
  try {
    extraction = await extractOrRefuse(pending.filename, data, ['path', 'file_id']);
  } catch (err) {
    // A KMZ or zipped shapefile that unpacks past the budget: stopped there, and handed over.
    if (err instanceof BeyondRequestBudget) return { queued: await handOver(actor, pending) };
    // Refused (422, 413): the upload goes, so a refused file leaves nothing behind.
    if (isRefusal(err)) await discard(pending);
    throw err;
  }
  return { stored: await storeUploadedFile(actor, env, pending, data.length, extraction) };
}

/** Stores a file of the presigned flow where it was uploaded, ending its pending item in the same transaction. */
export function storeUploadedFile(
  actor: Actor,
  env: StoredEnvironment,
  pending: PendingUpload,
  sizeBytes: number,
  extraction: Extraction,
): Promise<InfrastructureFile> {
  return storeFile(actor, env, {
    fileId: pending.file_id,
    filename: pending.filename,
    sizeBytes,
    originalKey: pending.original_key,
    extraction,
    via: 'upload_url',
    alsoWrite: [consumePendingUpload(pending)],
  });
}

/**
 * Marks the file `processing` as the caller's, and queues it in the same transaction: the outbox
 * message goes from the table's stream to the bus (publish-events) and by a rule to the
 * `map-extractions` queue, so the request needs no queue client and a file is never `processing`
 * without its message. A second request meanwhile finds it processing and answers the same.
 */
async function handOver(actor: Actor, pending: PendingUpload): Promise<FileStatus> {
  const message = { environment_id: pending.environment_id, file_id: pending.file_id };
  await markPendingProcessing(pending, actor, now(), [
    outboxPut({
      tenantId: pending.tenant_id,
      source: INFRASTRUCTURE_SOURCE,
      detailType: EXTRACTION_REQUESTED,
      detail: message,
    }),
  ]);
  return pendingStatus({ ...pending, status: 'processing' });
}

export async function discard(pending: PendingUpload): Promise<void> {
  await deleteObjectsUnder(fileObjectPrefix(pending.tenant_id, pending.environment_id, pending.file_id));
  await deletePendingUpload(pending);
}
