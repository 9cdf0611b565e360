/**
 * Where a file of the presigned flow stands (GET .../{file_id}/status): its pending item while it
 * waits for its upload, is extracted in the background or has failed (presigned.ts,
 * background.ts); its file item once stored. Its own module: reading a status parses nothing.
 */
import { getPendingUpload, type PendingUpload } from '../../db/pending-uploads.js';
import { NotFoundError } from '../../errors.js';
import type { Actor } from '../actor.js';
import { findStoredEnvironment } from '../sites/index.js';
import { FILE_NOT_FOUND, findFileRecord, publicFile, type InfrastructureFile } from './storage.js';
import type { TenantId } from '../../vocabulary/tenant.js';

/** As the route documents it (`infrastructureFileStatus`, shared/schemas/infrastructure.ts). */
export interface FileStatus {
  file_id: string;
  environment_id: string;
  filename: string;
  status: 'awaiting_upload' | 'processing' | 'ready' | 'failed';
  reason: string | null;
  file: InfrastructureFile | null;
}

export function pendingStatus(pending: PendingUpload): FileStatus {
  return {
    file_id: pending.file_id,
    environment_id: pending.environment_id,
    filename: pending.filename,
    status: pending.status ?? 'awaiting_upload',
    reason: pending.status === 'failed' ? (pending.reason ?? null) : null,
    file: null,
  };
}

export async function infrastructureFileStatus(
  actor: Actor,
  environmentId: string,
  fileId: string,
  tenantId: TenantId,
): Promise<FileStatus> {
  const env = await findStoredEnvironment(tenantId, environmentId);
  const pending = await getPendingUpload(env.tenant_id, fileId);
  if (pending) {
    if (pending.environment_id !== env.environment_id) throw new NotFoundError(FILE_NOT_FOUND);
    return pendingStatus(pending);
  }
  const record = await findFileRecord(env, fileId);
  return {
    file_id: record.file_id,
    environment_id: record.environment_id,
    filename: record.filename,
    status: 'ready',
    reason: null,
    file: publicFile(record),
  };
}
