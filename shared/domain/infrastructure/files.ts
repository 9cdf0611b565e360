/** Reading and deleting the stored files of an environment. */
import { deleteObjectsUnder, getObjectBytes, presignGet } from '../../adapters/s3.js';
import { auditEntry, auditPut } from '../../db/audit/index.js';
import type { PageRequest } from '../../db/query.js';
import { deleteSiteEntity, listSiteEntitiesOfEnvironment, SITE_KINDS } from '../../db/site-entities.js';
import { ConditionFailed, transactWrite } from '../../db/transact.js';
import { NotFoundError } from '../../errors.js';
import type { Actor } from '../actor.js';
import { findStoredEnvironment } from '../sites/index.js';
import {
  fileObjectPrefix,
  FILE_NOT_FOUND,
  findFileRecord,
  publicFile,
  type FileRecord,
  type InfrastructureFile,
} from './storage.js';
import type { TenantId } from '../../vocabulary/tenant.js';

/**
 * Feature collections up to this size are answered in the response body. Larger ones (possible
 * through presigned uploads) do not fit a Lambda response, 6 MB counted after the body is
 * escaped into the proxy result's JSON (every quote doubles), so they are answered with a
 * redirect to a short-lived S3 URL.
 */
export const MAX_INLINE_FEATURES_BYTES = 4 * 1024 * 1024;
export const FEATURES_URL_TTL_SECONDS = 5 * 60;

export interface FileList {
  items: InfrastructureFile[];
  /** The environment's file count, kept with every creation and deletion. */
  total: number;
  limit: number;
  offset: number;
}

export async function listInfrastructureFiles(
  actor: Actor,
  environmentId: string,
  tenantId: TenantId,
  page: PageRequest,
): Promise<FileList> {
  const env = await findStoredEnvironment(tenantId, environmentId);
  const records = await listSiteEntitiesOfEnvironment<FileRecord>(
    SITE_KINDS.file,
    env.tenant_id,
    env.environment_id,
    page,
    { newestFirst: true },
  );
  return { items: records.map(publicFile), total: env.counts.files, limit: page.limit, offset: page.offset };
}

/** The FeatureCollection as stored (JSON text), or where to fetch it when it is too large to answer. */
export type StoredFeatures = { json: string } | { redirectTo: string };

export async function infrastructureFeatures(
  actor: Actor,
  environmentId: string,
  fileId: string,
  tenantId: TenantId,
): Promise<StoredFeatures> {
  const env = await findStoredEnvironment(tenantId, environmentId);
  const record = await findFileRecord(env, fileId);
  if (record.features_size_bytes > MAX_INLINE_FEATURES_BYTES) {
    return { redirectTo: await presignGet(record.features_key, FEATURES_URL_TTL_SECONDS) };
  }
  const bytes = await getObjectBytes(record.features_key);
  // Deleted between the two reads.
  if (!bytes) throw new NotFoundError(FILE_NOT_FOUND);
  return { json: bytes.toString('utf8') };
}

export interface FileDeleted {
  file_id: string;
  deleted: true;
  objects_removed: number;
}

/**
 * Deletes the objects first, then the item with its audit entry: if the second step fails, the
 * file is still listed and deleting it again finishes the job.
 */
export async function deleteInfrastructureFile(
  actor: Actor,
  environmentId: string,
  fileId: string,
  tenantId: TenantId,
): Promise<FileDeleted> {
  const env = await findStoredEnvironment(tenantId, environmentId);
  const record = await findFileRecord(env, fileId);
  const removed = await deleteObjectsUnder(fileObjectPrefix(env.tenant_id, env.environment_id, fileId));
  const audit = auditEntry(actor, {
    tenantId: env.tenant_id,
    action: 'infrastructure_file.deleted',
    resourceType: SITE_KINDS.file.resource,
    resourceId: fileId,
    changes: { filename: record.filename, format: record.format, objects_removed: removed },
  });
  try {
    await transactWrite([...deleteSiteEntity(SITE_KINDS.file, record), auditPut(audit)]);
  } catch (err) {
    // Deleted by another request meanwhile (or with its environment).
    if (err instanceof ConditionFailed) throw new NotFoundError(FILE_NOT_FOUND);
    throw err;
  }
  return { file_id: fileId, deleted: true, objects_removed: removed };
}
