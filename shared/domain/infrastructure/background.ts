/**
 * The background extraction (worker `extract-maps`, queue `map-extractions`): a file of any
 * format too large for a request (budget.ts), handed over by its extract call (presigned.ts: an
 * outbox message written with its `processing` mark, published from the table's stream and put on
 * the queue by a bus rule, so each message is the whole EventBridge event), read as a stream
 * (KML and KMZ: kml-stream.ts; GeoJSON: geojson-stream.ts; a zipped shapefile record by record:
 * shapefile.ts) within limits counted while reading, then stored as a request would store it, as
 * the caller who asked. A file it refuses is deleted and its status says why (`failed`); a fault
 * (a dependency down) is thrown, so the message comes back, and on its last receive the file is
 * marked failed before the message goes to the dead letters. Idempotent: a message whose file is
 * no longer `processing` (stored, failed, gone) changes nothing, and storing consumes the pending
 * item in the same transaction, so a second delivery cannot store the file twice.
 */
import { deleteObjectsUnder, getObjectBytes } from '../../adapters/s3.js';
import { getEnvironment } from '../../db/environments.js';
import {
  deletePendingUpload,
  getPendingUpload,
  markPendingFailed,
  type PendingUpload,
} from '../../db/pending-uploads.js';
import { ConflictError, isRefusal } from '../../errors.js';
import { now } from '../../ids.js';
import { log } from '../../log.js';
import { MAX_STREAM_FEATURES, MAX_STREAM_VERTICES } from '../../schemas/infrastructure.js';
import { asTenant } from '../../tenant-scope.js';
import { systemTenant } from '../../vocabulary/tenant.js';
import { systemActor } from '../actor.js';
import { openByNameAndContent, sniffContainer } from './detect.js';
import { extractionOf, type Extraction } from './extract.js';
import { formatFromFilename, type InfrastructureFormat } from './formats.js';
import { GeoFileError } from './geo-file-error.js';
import { streamGeojsonFeatures } from './geojson-stream.js';
import { streamKmlFeatures } from './kml-stream.js';
import { storeUploadedFile, type ExtractionMessage } from './presigned.js';
import type { ReadLimits } from './read-limits.js';
import { shapefileFeatures } from './shapefile.js';
import { fileObjectPrefix } from './storage.js';
import { MAX_UNPACKED_BYTES } from './zip.js';

/** What the background extraction reads of one file at most. */
export const STREAM_LIMITS: ReadLimits = {
  maxBytes: MAX_UNPACKED_BYTES,
  maxFeatures: MAX_STREAM_FEATURES,
  maxVertices: MAX_STREAM_VERTICES,
};

/** How long a failed file's status stays readable. */
const FAILED_KEPT_SECONDS = 24 * 60 * 60;

const INTERNAL_FAILURE =
  'The extraction failed repeatedly on our side (not because of the file); upload the file again';

export type BackgroundOutcome = 'stored' | 'failed' | 'skipped';

/**
 * Extracts the file a `map-extractions` message names. `lastTry`: the queue will not deliver the
 * message again (its last receive), so a fault marks the file failed before it is thrown.
 */
export async function extractInBackground(body: string, lastTry: boolean): Promise<BackgroundOutcome> {
  const message = extractionMessageOf(body);
  if (!message) {
    log.error('a map-extractions message is not an extraction_requested event: dropped');
    return 'skipped';
  }
  // The message was written by the extract call of the file's own tenant: run as that tenant
  // (docs/architecture.md, 27), whose credentials reach its own items and objects only.
  return asTenant(message.tenant_id, () => extractFile(message, lastTry));
}

async function extractFile(message: ExtractionMessage, lastTry: boolean): Promise<BackgroundOutcome> {
  const tenantId = systemTenant(message.tenant_id);
  const pending = await getPendingUpload(tenantId, message.file_id);
  if (!pending || pending.status !== 'processing' || pending.environment_id !== message.environment_id)
    return 'skipped';
  const env = await getEnvironment(tenantId, pending.environment_id);
  if (!env) {
    // Deleted meanwhile, with everything under its prefix: nothing to store or to report.
    await deleteObjectsUnder(fileObjectPrefix(pending.tenant_id, pending.environment_id, pending.file_id));
    await deletePendingUpload(pending);
    return 'skipped';
  }
  try {
    const data = await getObjectBytes(pending.original_key);
    if (!data) return await fail(pending, 'The uploaded file is gone; upload it again');
    const extraction = await extractStreamed(pending.filename, data);
    const actor = pending.requested_by ?? systemActor(`extract-${pending.file_id}`);
    await storeUploadedFile(actor, env, pending, data.length, extraction);
    return 'stored';
  } catch (err) {
    // Stored by another delivery of the same message.
    if (err instanceof ConflictError) return 'stored';
    if (err instanceof GeoFileError || isRefusal(err)) return fail(pending, (err as Error).message);
    if (lastTry) await fail(pending, INTERNAL_FAILURE);
    throw err;
  }
}

/** The `detail` of the bus event a message carries, or null when it is not one (no retry makes it one). */
function extractionMessageOf(body: string): ExtractionMessage | null {
  let detail: Partial<ExtractionMessage> | undefined;
  try {
    detail = (JSON.parse(body) as { detail?: Partial<ExtractionMessage> }).detail;
  } catch {
    return null;
  }
  const { tenant_id: tenantId, environment_id: environmentId, file_id: fileId } = detail ?? {};
  if (typeof tenantId !== 'string' || typeof environmentId !== 'string' || typeof fileId !== 'string') return null;
  return { tenant_id: tenantId, environment_id: environmentId, file_id: fileId };
}

/** What the background extraction makes of a file: its features read as a stream, within STREAM_LIMITS. */
export async function extractStreamed(filename: string, data: Buffer): Promise<Extraction> {
  return extractionOf(formatFromFilename(filename) as InfrastructureFormat, await streamedFeatures(filename, data));
}

/** The features of a file, streamed: its text is never held decoded, nor a tree of it. */
async function streamedFeatures(filename: string, data: Buffer) {
  const format = formatFromFilename(filename);
  const container = sniffContainer(data);
  if (format === 'kml' && container === 'xml') {
    return (await streamKmlFeatures(slices(data), STREAM_LIMITS, 'The KML document')).features;
  }
  if (format === 'geojson' && container === 'json') {
    return (await streamGeojsonFeatures(slices(data), STREAM_LIMITS, filename)).features;
  }
  // A KMZ or zipped shapefile (the archive is opened, its entries not read), or a name and content that disagree (422's message).
  const opened = await openByNameAndContent(filename, data);
  if (opened.format === 'kmz') {
    const label = `${opened.kml.name} in the KMZ archive`;
    return (await streamKmlFeatures(opened.archive.stream(opened.kml), STREAM_LIMITS, label)).features;
  }
  if (opened.format === 'shapefile') return shapefileFeatures(opened.archive, opened.layers, STREAM_LIMITS);
  throw new Error(`a ${opened.format} file was queued for the background extraction`);
}

async function* slices(data: Buffer, size = 64 * 1024): AsyncIterable<Buffer> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

/** Refused: the upload goes, and the status says why for a day. */
async function fail(pending: PendingUpload, reason: string): Promise<'failed'> {
  await deleteObjectsUnder(fileObjectPrefix(pending.tenant_id, pending.environment_id, pending.file_id));
  await markPendingFailed(pending, reason, now(), Math.floor(Date.now() / 1000) + FAILED_KEPT_SECONDS);
  log.info('a background extraction refused its file', { file_id: pending.file_id, reason });
  return 'failed';
}
