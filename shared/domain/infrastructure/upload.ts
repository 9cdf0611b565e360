/** A file sent directly as multipart form data: extracted, then stored, or refused with nothing stored. */
import { invalid, PayloadTooLargeError } from '../../errors.js';
import { newTimeId } from '../../ids.js';
import type { Actor } from '../actor.js';
import { findStoredEnvironment } from '../sites/index.js';
import { extractOrRefuse } from './extract.js';
import { baseName } from './formats.js';
import { LARGER_FILES_WAY } from '../../schemas/infrastructure.js';
import { BeyondRequestBudget } from './budget.js';
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
  let extraction;
  try {
    extraction = await extractOrRefuse(filename, incoming.data, ['body', 'file']);
  } catch (err) {
    // Refused before anything is written: nothing of the file is stored.
    if (err instanceof BeyondRequestBudget) throw new PayloadTooLargeError(uploadUrlHint(err, env.environment_id));
    throw err;
  }
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

/** What a file beyond a request's budget is told: the way that takes it. */
export function uploadUrlHint(err: BeyondRequestBudget, environmentId: string): string {
  return `${err.message}: ${LARGER_FILES_WAY.replaceAll('{environment_id}', environmentId)}`;
}
