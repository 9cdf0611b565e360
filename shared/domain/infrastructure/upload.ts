/** A file sent directly as multipart form data: extracted, then stored, or refused with nothing stored. */
import { invalid } from '../../errors.js';
import { newTimeId } from '../../ids.js';
import type { Actor } from '../actor.js';
import { findStoredEnvironment } from '../sites/index.js';
import { extractOrRefuse } from './extract.js';
import { baseName } from './formats.js';
import { fileObjectPrefix, originalObjectKey, storeFile, type InfrastructureFile } from './storage.js';
import type { TenantId } from '../../vocabulary/tenant.js';

export const MAX_FILENAME_LENGTH = 255;

export interface IncomingFile {
  filename: string;
  data: Buffer;
}

/**
 * Stores a file in an environment of the caller's tenant. `readFile` is called after the
 * environment is found, so another tenant's environment is a 404 whatever the body holds.
 */
export async function uploadInfrastructureFile(
  actor: Actor,
  environmentId: string,
  tenantId: TenantId,
  readFile: () => Promise<IncomingFile>,
): Promise<InfrastructureFile> {
  const env = await findStoredEnvironment(tenantId, environmentId);
  const incoming = await readFile();
  const filename = baseName(incoming.filename);
  if (filename.length > MAX_FILENAME_LENGTH) {
    throw invalid(['body', 'file'], `The file name is longer than ${MAX_FILENAME_LENGTH} characters`, 'file_name');
  }
  const extraction = await extractOrRefuse(filename, incoming.data, ['body', 'file']);
  const fileId = newTimeId();
  return storeFile(actor, env, {
    fileId,
    filename,
    sizeBytes: incoming.data.length,
    originalKey: originalObjectKey(fileObjectPrefix(env.tenant_id, env.environment_id, fileId), filename),
    originalBody: incoming.data,
    extraction,
    via: 'upload',
  });
}
