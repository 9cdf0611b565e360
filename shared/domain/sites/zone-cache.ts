/**
 * Each environment's active zones, kept by a function container between requests and trusted
 * while the tenant's zone revision is the one they were read at. Every zone write moves the
 * revision in its own transaction (shared/db/site-entities.ts), and ingest reads the revision
 * consistently with its other lookups, in the same trip: a zone created, changed or deleted
 * counts from the next request on, without a Query per request.
 *
 * The zones themselves come from an index (GSI1), which follows the table by a moment. A set read
 * within SETTLE_MS of the last zone change is used but not kept, so a read that the index had not
 * caught up with is never kept.
 */
import { listSiteEntitiesOfEnvironment, SITE_KINDS, type SiteRevision, type Zone } from '../../db/site-entities.js';
import type { TenantId } from '../../vocabulary/tenant.js';

/** How long after a zone change the index is not trusted to have it (GSI lag is well under a second). */
export const SETTLE_MS = 5_000;
/** Environments kept per container; the least recently used goes first. */
const MAX_ENVIRONMENTS = 500;

interface Kept {
  revision: number;
  zones: Promise<Zone[]>;
}

const kept = new Map<string, Kept>();

/** Reads an environment's active zones: at most one of them per environment (and zones page). */
function readActiveZones(tenantId: TenantId, environmentId: string): Promise<Zone[]> {
  return listSiteEntitiesOfEnvironment<Zone>(SITE_KINDS.zone, tenantId, environmentId, { limit: 1000, offset: 0 }).then(
    (zones) => zones.filter((z) => z.active),
  );
}

/**
 * The active zones of an environment at `revision` (the tenant's, read consistently in this
 * request): kept ones if read at that revision, else read now (and kept once the revision has
 * settled). `nowMs` is the request's time.
 */
export function activeZones(
  tenantId: TenantId,
  environmentId: string,
  revision: SiteRevision,
  nowMs: number,
): Promise<Zone[]> {
  const key = `${tenantId}/${environmentId}`;
  const hit = kept.get(key);
  if (hit && hit.revision === revision.revision) {
    // Least recently used first: a hit moves to the end.
    kept.delete(key);
    kept.set(key, hit);
    return hit.zones;
  }
  const zones = readActiveZones(tenantId, environmentId);
  if (nowMs - revision.changedAtMs < SETTLE_MS) {
    kept.delete(key);
    return zones;
  }
  const entry: Kept = { revision: revision.revision, zones };
  kept.delete(key);
  kept.set(key, entry);
  if (kept.size > MAX_ENVIRONMENTS) kept.delete(kept.keys().next().value!);
  // A failed read is not kept.
  zones.catch(() => {
    if (kept.get(key) === entry) kept.delete(key);
  });
  return zones;
}
