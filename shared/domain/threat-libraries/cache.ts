/**
 * A tenant's active threat definitions, compiled, kept by a function container between requests
 * and trusted while the tenant's threat-library revision is the one they were read at. Every
 * library write moves the revision in its own transaction (shared/db/threat-libraries.ts), and
 * ingest reads the revision consistently with its other lookups, in the same trip: a definition
 * created, changed or deactivated counts from the next request on, without a Query per request.
 * The libraries are read from the table itself (consistently), so what is read is never older
 * than the revision read before it.
 */
import { allLibraries } from '../../db/threat-libraries.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { compileDefinitions, type CompiledDefinition } from './matching.js';

/** Tenants kept per container; the least recently used goes first. */
const MAX_TENANTS = 500;

interface Kept {
  revision: number;
  definitions: Promise<CompiledDefinition[]>;
}

const kept = new Map<TenantId, Kept>();

/** The tenant's active definitions at `revision` (read in this request; undefined: not read, so nothing kept is trusted). */
export function tenantDefinitions(tenantId: TenantId, revision: number | undefined): Promise<CompiledDefinition[]> {
  const hit = kept.get(tenantId);
  if (hit && revision !== undefined && hit.revision === revision) {
    kept.delete(tenantId);
    kept.set(tenantId, hit);
    return hit.definitions;
  }
  const definitions = allLibraries(tenantId).then(compileDefinitions);
  kept.delete(tenantId);
  if (revision === undefined) return definitions;
  const entry: Kept = { revision, definitions };
  kept.set(tenantId, entry);
  if (kept.size > MAX_TENANTS) kept.delete(kept.keys().next().value!);
  // A failed read is not kept.
  definitions.catch(() => {
    if (kept.get(tenantId) === entry) kept.delete(tenantId);
  });
  return definitions;
}
