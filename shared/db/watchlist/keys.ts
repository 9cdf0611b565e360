/**
 * The keys of a tenant's watchlist (docs/data-model.md, patterns 47 to 47c), apart from
 * shared/db/keys.ts so that only the functions that read or write the watchlist carry them.
 */
import * as keys from '../item-keys.js';
import { tenantPk } from '../keys.js';

/** The sort-key prefix of the entries in the watchlist's partition. */
export const WATCHLIST_ENTRY_PREFIX = 'ENTRY#';

const partition = (tenantId: string) => `${tenantPk(tenantId)}#WATCHLIST`;

export const watchlistKeys = {
  /** An entry, by its UUIDv7 id: the partition read backwards is the watchlist newest first. */
  entry: (tenantId: string, entryId: string) => ({
    PK: partition(tenantId),
    SK: `${WATCHLIST_ENTRY_PREFIX}${entryId}`,
  }),
  /** How many entries the tenant has: the limit is checked in the adding transaction. */
  count: (tenantId: string) => ({ PK: partition(tenantId), SK: 'COUNT' }),
  /**
   * The entity an entry watches (type and normalised value), naming the entry: put with
   * `attribute_not_exists` in the adding transaction, so an entity is watched once.
   */
  watched: (tenantId: string, entityType: string, value: string | number) => ({
    PK: partition(tenantId),
    SK: `WATCHED#${entityType}#${value}`,
  }),
  /** The tenant's watchlist revision, moved by every add and remove (with the other revisions, shared/db/revisions.ts). */
  revision: (tenantId: string) => keys.siteRevision(tenantId, 'WATCH#'),
} as const;
