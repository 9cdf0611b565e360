/**
 * Where an infrastructure file lives and how it is stored: the original and its extracted
 * features in S3 under `<environment prefix>files/<file_id>/` (the environment's cascade deletes
 * by that prefix), the item in the table with its audit entry in one transaction. Objects are
 * written first; when the transaction fails they are deleted again, so a refused or failed
 * file leaves nothing behind.
 */
import { deleteObjectsUnder, environmentPrefix, putObject } from '../../adapters/s3.js';
import { auditEntry, auditPut } from '../../db/audit/index.js';
import type { StoredEnvironment } from '../../db/environments.js';
import { createSiteEntity, getSiteEntity, SITE_KINDS, type StoredSiteEntity } from '../../db/site-entities.js';
import { ConditionFailed, transactWrite, type TransactItem } from '../../db/transact.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import { now } from '../../ids.js';
import { infrastructureFile } from '../../schemas/infrastructure.js';
import type { Actor } from '../actor.js';
import { ENVIRONMENT_NOT_FOUND } from '../sites/index.js';
import type { Extraction } from './extract.js';
import { extensionOf, type InfrastructureFormat } from './formats.js';
import type { InfrastructureFile } from '../../db/site-entities.js';

export type { InfrastructureFile } from '../../db/site-entities.js';

export const FILE_NOT_FOUND = 'Infrastructure file not found';

/** The item: the public fields and where the objects are. */
export interface FileRecord extends InfrastructureFile {
  original_key: string;
  features_key: string;
  features_size_bytes: number;
}

const PUBLIC_FIELDS = infrastructureFile.required;

export function publicFile(record: FileRecord): InfrastructureFile {
  return Object.fromEntries(PUBLIC_FIELDS.map((f) => [f, record[f]])) as unknown as InfrastructureFile;
}

export const fileObjectPrefix = (tenantId: string, environmentId: string, fileId: string) =>
  `${environmentPrefix(tenantId, environmentId)}files/${fileId}/`;

/** `original.<extension of the uploaded name>`, e.g. original.kmz. */
export const originalObjectKey = (prefix: string, filename: string) => `${prefix}original.${extensionOf(filename)}`;
export const featuresObjectKey = (prefix: string) => `${prefix}features.geojson`;
/** The file's lines and their spatial index (shared/domain/infrastructure/line-index.ts), when it has lines. */
export const linesObjectKey = (featuresKey: string) => featuresKey.replace(/features\.geojson$/, 'lines.json');

const CONTENT_TYPES: Readonly<Record<InfrastructureFormat, string>> = {
  kml: 'application/vnd.google-earth.kml+xml',
  kmz: 'application/vnd.google-earth.kmz',
  geojson: 'application/geo+json',
  shapefile: 'application/zip',
};
export const contentTypeOf = (format: InfrastructureFormat) => CONTENT_TYPES[format];

/** The file of this environment, or 404. */
export async function findFileRecord(env: StoredEnvironment, fileId: string): Promise<StoredSiteEntity<FileRecord>> {
  const record = await getSiteEntity<FileRecord>(SITE_KINDS.file, env.tenant_id, fileId);
  if (!record || record.environment_id !== env.environment_id) throw new NotFoundError(FILE_NOT_FOUND);
  return record;
}

export interface NewFile {
  fileId: string;
  filename: string;
  sizeBytes: number;
  /** Stored here already (presigned upload) or to be stored with `originalBody`. */
  originalKey: string;
  originalBody?: Uint8Array;
  extraction: Extraction;
  via: 'upload' | 'upload_url';
  /** More writes for the same transaction (after the item, its count and before the audit entry). */
  alsoWrite?: TransactItem[];
}

/** Features written per slice of `collectionBytes`, between which the event loop turns. */
const JSON_SLICE = 5000;

/**
 * The collection as JSON in UTF-8, exactly as JSON.stringify writes it, a slice of features at a
 * time, each slice encoded as it is written: the text of 230,000 features is written over about a
 * second, and a server that stores one stays responsive meanwhile (one 50 MB string, encoded at
 * once, held the event loop for 1.7 s).
 */
export async function collectionBytes(collection: Extraction['features']): Promise<Buffer> {
  const { features, ...rest } = collection;
  if (features.length <= JSON_SLICE || Object.keys(rest).join() !== 'type')
    return Buffer.from(JSON.stringify(collection), 'utf8');
  const parts = [Buffer.from(`{"type":${JSON.stringify(rest.type)},"features":[`, 'utf8')];
  for (let i = 0; i < features.length; i += JSON_SLICE) {
    const slice = features
      .slice(i, i + JSON_SLICE)
      .map((f) => JSON.stringify(f))
      .join(',');
    parts.push(Buffer.from(i === 0 ? slice : `,${slice}`, 'utf8'));
    await new Promise((resolve) => setImmediate(resolve));
  }
  parts.push(Buffer.from(']}', 'utf8'));
  return Buffer.concat(parts);
}

/**
 * Stores the objects, then the item, the environment's count and the audit entry at once. On a
 * failed transaction it removes what it wrote: everything under the file's prefix for a direct
 * upload, only the features for a presigned one (whose original the client may extract again),
 * unless another request stored the same file meanwhile (409).
 */
export async function storeFile(actor: Actor, env: StoredEnvironment, file: NewFile): Promise<InfrastructureFile> {
  const prefix = fileObjectPrefix(env.tenant_id, env.environment_id, file.fileId);
  const features = await collectionBytes(file.extraction.features);
  const record: FileRecord = {
    file_id: file.fileId,
    tenant_id: env.tenant_id,
    environment_id: env.environment_id,
    filename: file.filename,
    format: file.extraction.format,
    size_bytes: file.sizeBytes,
    ...file.extraction.summary,
    created_by: actor.principal?.userId ?? '',
    created_at: now(),
    original_key: file.originalKey,
    features_key: featuresObjectKey(prefix),
    features_size_bytes: features.length,
  };
  const audit = auditEntry(actor, {
    tenantId: env.tenant_id,
    action: 'infrastructure_file.created',
    resourceType: SITE_KINDS.file.resource,
    resourceId: file.fileId,
    changes: {
      filename: record.filename,
      format: record.format,
      size_bytes: record.size_bytes,
      feature_count: record.feature_count,
      geometry_types: record.geometry_types,
      via: file.via,
    },
  });
  try {
    await Promise.all([
      file.originalBody ? putObject(file.originalKey, file.originalBody, contentTypeOf(record.format)) : undefined,
      putObject(record.features_key, features, 'application/geo+json'),
      file.extraction.lines
        ? putObject(linesObjectKey(record.features_key), JSON.stringify(file.extraction.lines), 'application/json')
        : undefined,
    ]);
    await transactWrite([...createSiteEntity(SITE_KINDS.file, record), ...(file.alsoWrite ?? []), auditPut(audit)]);
  } catch (err) {
    // Item 1 is the environment's count: the environment was deleted meanwhile; nothing may stay.
    if (err instanceof ConditionFailed && err.index === 1) {
      await deleteObjectsUnder(prefix);
      throw new NotFoundError(ENVIRONMENT_NOT_FOUND);
    }
    // The item or the pending upload: another request stored this very file; its objects stay.
    if (err instanceof ConditionFailed) throw new ConflictError('This file has been extracted already');
    await deleteObjectsUnder(file.originalBody ? prefix : record.features_key);
    throw err;
  }
  return publicFile(record);
}
