/**
 * Threat libraries in the single table: one item per library in the tenant's partition
 * (`T#tid`, `THREATLIB#<id>`) with its definitions embedded, at most 20 a tenant
 * (shared/db/counted-items.ts), so one consistent Query reads all of them. Every write of a library
 * also moves the tenant's threat-library revision (`REVISION#TLIB#`) in its transaction: the
 * matcher at ingest keeps the tenant's definitions and reads them again only when it moved.
 */
import { MAX_LIBRARIES_PER_TENANT, type threatIndicators, type threatMatch } from '../schemas/threat-libraries.js';
import type { Infer } from '../schemas/json-schema.js';
import type { IncidentSeverity } from '../vocabulary/incidents.js';
import type { TenantId } from '../vocabulary/tenant.js';
import { deleteCounted, getCounted, putNewCountedMany, type CountedKind } from './counted-items.js';
import { pick, versionedUpdate } from './items.js';
import * as keys from './item-keys.js';
import { tenantPk } from './keys.js';
import { queryPage, type PageRequest } from './query.js';
import type { ItemKey, Prefetched } from './read-batch.js';
import { bumpRevision, revisionFrom, type Revision } from './revisions.js';
import type { TransactItem } from './transact.js';

export type ThreatMatch = Infer<typeof threatMatch>;
export type ThreatIndicators = Infer<typeof threatIndicators>;

/** A definition as stored and shown: every field present (`indicators` null when none). */
export interface ThreatDefinition {
  definition_id: string;
  name: string;
  description: string;
  severity: IncidentSeverity;
  weight: number;
  active: boolean;
  match: ThreatMatch;
  indicators: ThreatIndicators | null;
}

export interface ThreatLibrary {
  library_id: string;
  tenant_id: TenantId;
  name: string;
  description: string;
  vertical: string;
  active: boolean;
  /** The seed library this is (`gatehouse.<vertical>`), or null for the tenant's own. */
  seed_key: string | null;
  definitions: ThreatDefinition[];
  created_at: string;
  updated_at: string;
}

export interface StoredThreatLibrary extends ThreatLibrary {
  version: number;
}

const KIND: CountedKind = {
  entity: 'THREAT_LIBRARY',
  prefix: 'THREATLIB#',
  item: keys.threatLibrary,
  count: keys.threatLibraryCount,
  limit: MAX_LIBRARIES_PER_TENANT,
};

const PUBLIC_FIELDS = [
  'library_id',
  'tenant_id',
  'name',
  'description',
  'vertical',
  'active',
  'seed_key',
  'definitions',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof ThreatLibrary)[];

const fromItem = (item: Record<string, unknown>): StoredThreatLibrary =>
  pick<StoredThreatLibrary>(item, [...PUBLIC_FIELDS, 'version']);

/** What a library shows: an allowlist, so `version` (or a later internal field) is never answered. */
export function publicLibrary(library: ThreatLibrary | StoredThreatLibrary): ThreatLibrary {
  return pick<ThreatLibrary>({ ...library }, PUBLIC_FIELDS);
}

/** The key of the tenant's threat-library revision item, moved by every library write. */
export const libraryRevisionKey = (tenantId: TenantId): ItemKey => keys.siteRevision(tenantId, 'TLIB#');

/** The tenant's threat-library revision among items read in one batch (none yet: 0); undefined when it was not read. */
export function libraryRevisionFrom(read: Prefetched, tenantId: TenantId): Revision | undefined {
  return revisionFrom(read, libraryRevisionKey(tenantId));
}

/** The key of a library, to be read with other items in one batch. */
export const libraryKey = (tenantId: TenantId, libraryId: string): ItemKey => keys.threatLibrary(tenantId, libraryId);

export async function getLibrary(tenantId: TenantId, libraryId: string): Promise<StoredThreatLibrary | null> {
  const item = await getCounted(KIND, tenantId, libraryId);
  return item ? fromItem(item) : null;
}

export interface LibraryFilter {
  vertical?: string;
  activeOnly?: boolean;
}

/**
 * The tenant's libraries that pass the filter, oldest first: one consistent Query of the prefix
 * (at most 20 items), the filters on it; then the page.
 */
export async function listLibraries(
  tenantId: TenantId,
  filter: LibraryFilter,
  page: PageRequest,
): Promise<StoredThreatLibrary[]> {
  const items = await queryPage(
    {
      pk: tenantPk(tenantId),
      skPrefix: KIND.prefix,
      consistent: true,
      filter: { vertical: filter.vertical, active: filter.activeOnly ? true : undefined },
    },
    { limit: KIND.limit, offset: 0 },
  );
  // Seeded libraries have ids made from their seed key, not from time: the order is their creation's.
  const libraries = items
    .map(fromItem)
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.library_id.localeCompare(b.library_id));
  return libraries.slice(page.offset, page.offset + page.limit);
}

/** Every library of the tenant, oldest first (consistent, one Query: at most 20). */
export function allLibraries(tenantId: TenantId): Promise<StoredThreatLibrary[]> {
  return listLibraries(tenantId, {}, { limit: KIND.limit, offset: 0 });
}

/**
 * Writes of libraries in one transaction, with the revision's move: `updated` first (each
 * conditioned on the version read), then `created` (each new), then, when any is created, the
 * count's step (its condition is item `updated.length + created.length`: the tenant's limit),
 * then the revision.
 */
export function libraryWrites(
  tenantId: TenantId,
  changes: { updated?: readonly StoredThreatLibrary[]; created?: readonly Omit<StoredThreatLibrary, 'version'>[] },
): TransactItem[] {
  const { updated = [], created = [] } = changes;
  return [
    ...updated.map((next) => {
      const {
        library_id: _id,
        tenant_id: _tenant,
        created_at: _created,
        seed_key: _seed,
        ...fields
      } = publicLibrary(next);
      return versionedUpdate(keys.threatLibrary(tenantId, next.library_id), fields, next.version);
    }),
    ...(created.length > 0
      ? putNewCountedMany(
          KIND,
          tenantId,
          created.map((l) => ({ id: l.library_id, fields: { ...l } })),
        )
      : []),
    bumpRevision(libraryRevisionKey(tenantId)),
  ];
}

/** The library's delete (item 0, conditioned on its version), the count's step back, and the revision. */
export function deleteLibraryItems(library: StoredThreatLibrary): TransactItem[] {
  return [
    ...deleteCounted(KIND, library.tenant_id, library.library_id, library.version),
    bumpRevision(libraryRevisionKey(library.tenant_id)),
  ];
}
