/**
 * A tenant's watchlist in the single table (docs/watchlist.md): one item per entry in the
 * watchlist's partition (`T#tid#WATCHLIST`, `ENTRY#<v7>`), at most MAX_WATCHLIST_ENTRIES, counted
 * as threat libraries are (shared/db/counted-items.ts), and beside each entry an item naming the
 * entity it watches (`WATCHED#<type>#<value>`), so the same entity is never watched twice. Every
 * add and remove also moves the tenant's watchlist revision (`REVISION#WATCH#`) in its
 * transaction: a consumer keeps the compiled watchlist and reads it again only when it moved.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { LineKind } from '../../vocabulary/lines.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { MAX_WATCHLIST_ENTRIES, type WatchlistEntityType } from '../../vocabulary/watchlist.js';
import { db, TABLE } from '../client.js';
import { deleteCounted, getCounted, putNewCounted, type CountedKind } from '../counted-items.js';
import { pick, putNew } from '../items.js';
import { queryPage, type PageRequest } from '../query.js';
import { readItems, type ItemKey, type Prefetched } from '../read-batch.js';
import { bumpRevision, revisionFrom, type Revision } from '../revisions.js';
import type { TransactItem } from '../transact.js';
import { WATCHLIST_ENTRY_PREFIX, watchlistKeys } from './keys.js';

/** A watched infrastructure line as its entry keeps it: enough to measure a distance to it without reading the file. */
export interface WatchedLine {
  file_id: string;
  /** The line's id within its file (`3`, `2.1`). */
  line_id: string;
  environment_id: string;
  name: string | null;
  /** Its tag when it was added (a later tag does not change the entry). */
  kind: LineKind | 'unclassified';
  /** `[lon, lat]` pairs in line order, at most MAX_WATCHED_LINE_VERTICES. */
  vertices: [number, number][];
  /** Whether the line had more vertices than an entry keeps, and was thinned evenly. */
  thinned: boolean;
  /** How many vertices the line has in its file. */
  source_vertices: number;
}

export interface WatchlistEntry {
  entry_id: string;
  tenant_id: TenantId;
  entity_type: WatchlistEntityType;
  /** The entity, normalised (docs/watchlist.md): a number for an `asn`, a string otherwise. */
  value: string | number;
  label: string | null;
  note: string | null;
  /** The line, for a `line` entry; null otherwise. */
  line: WatchedLine | null;
  created_at: string;
  /** The user who added it (for an API key: the key's user). */
  created_by: string;
}

export interface StoredWatchlistEntry extends WatchlistEntry {
  version: number;
}

const KIND: CountedKind = {
  entity: 'WATCHLIST_ENTRY',
  prefix: WATCHLIST_ENTRY_PREFIX,
  item: watchlistKeys.entry,
  count: watchlistKeys.count,
  limit: MAX_WATCHLIST_ENTRIES,
};

const PUBLIC_FIELDS = [
  'entry_id',
  'tenant_id',
  'entity_type',
  'value',
  'label',
  'note',
  'line',
  'created_at',
  'created_by',
] as const satisfies readonly (keyof WatchlistEntry)[];

const fromItem = (item: Record<string, unknown>): StoredWatchlistEntry =>
  pick<StoredWatchlistEntry>(item, [...PUBLIC_FIELDS, 'version']);

/** What an entry shows: an allowlist, so `version` (or a later internal field) is never answered. */
export const publicEntry = (entry: WatchlistEntry | StoredWatchlistEntry): WatchlistEntry =>
  pick<WatchlistEntry>({ ...entry }, PUBLIC_FIELDS);

/**
 * The writes that add an entry, for one transaction with its audit entry: the entry (item 0, new),
 * the count's step (item 1: its condition fails when the tenant has its MAX_WATCHLIST_ENTRIES),
 * the entity's item (item 2: its condition fails when the entity is watched already), the revision.
 */
export function watchlistAddWrites(entry: WatchlistEntry): TransactItem[] {
  return [
    ...putNewCounted(KIND, entry.tenant_id, entry.entry_id, { ...entry }),
    putNew({
      ...watchlistKeys.watched(entry.tenant_id, entry.entity_type, entry.value),
      entity: 'WATCHLIST_WATCHED',
      entry_id: entry.entry_id,
    }),
    bumpRevision(watchlistKeys.revision(entry.tenant_id)),
  ];
}

/** The index in watchlistAddWrites of the count's step (the limit) and of the entity's item (watched already). */
export const WATCHLIST_ADD_LIMIT_INDEX = 1;
export const WATCHLIST_ADD_WATCHED_INDEX = 2;

/**
 * The writes that remove an entry, for one transaction with its audit entry: the entry (item 0,
 * conditioned on the version read), the count's step back, the entity's item (freed for a later
 * add), the revision.
 */
export function watchlistRemoveWrites(entry: StoredWatchlistEntry): TransactItem[] {
  return [
    ...deleteCounted(KIND, entry.tenant_id, entry.entry_id, entry.version),
    { Delete: { TableName: TABLE, Key: watchlistKeys.watched(entry.tenant_id, entry.entity_type, entry.value) } },
    bumpRevision(watchlistKeys.revision(entry.tenant_id)),
  ];
}

export async function getWatchlistEntry(tenantId: TenantId, entryId: string): Promise<StoredWatchlistEntry | null> {
  const item = await getCounted(KIND, tenantId, entryId);
  return item ? fromItem(item) : null;
}

/** The entry that watches this entity (type and normalised value), or null (consistent). */
export async function watchingEntryId(
  tenantId: TenantId,
  entityType: WatchlistEntityType,
  value: string | number,
): Promise<string | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: watchlistKeys.watched(tenantId, entityType, value), ConsistentRead: true }),
  );
  return typeof out.Item?.entry_id === 'string' ? out.Item.entry_id : null;
}

/** A page of the tenant's entries, newest first (ids are UUIDv7), of one type when given: one consistent Query, the type a filter on it. */
export async function listWatchlistEntries(
  tenantId: TenantId,
  filter: { entityType?: WatchlistEntityType },
  page: PageRequest,
): Promise<StoredWatchlistEntry[]> {
  const { PK } = watchlistKeys.entry(tenantId, '');
  const items = await queryPage(
    {
      pk: PK,
      skPrefix: WATCHLIST_ENTRY_PREFIX,
      ascending: false,
      consistent: true,
      filter: { entity_type: filter.entityType },
    },
    page,
  );
  return items.map(fromItem);
}

/**
 * Every entry of the tenant, oldest first: one consistent Query of the partition's entries, all
 * its pages (at most MAX_WATCHLIST_ENTRIES items). Read after the revision, it is never older than it.
 */
export async function allWatchlistEntries(tenantId: TenantId): Promise<WatchlistEntry[]> {
  const { PK } = watchlistKeys.entry(tenantId, '');
  const items = await queryPage(
    { pk: PK, skPrefix: WATCHLIST_ENTRY_PREFIX, ascending: true, consistent: true },
    { limit: MAX_WATCHLIST_ENTRIES, offset: 0 },
  );
  return items.map((item) => publicEntry(fromItem(item)));
}

/** The key of the tenant's watchlist revision, to be read with other items in one batch (shared/db/read-batch.ts). */
export const watchlistRevisionKey = (tenantId: TenantId): ItemKey => watchlistKeys.revision(tenantId);

/** The tenant's watchlist revision among items read in one batch (none yet: 0); undefined when it was not read. */
export function watchlistRevisionFrom(read: Prefetched, tenantId: TenantId): Revision | undefined {
  return revisionFrom(read, watchlistRevisionKey(tenantId));
}

/** The tenant's watchlist revision, read alone (consistent; none yet: revision 0). */
export async function readWatchlistRevision(tenantId: TenantId): Promise<Revision> {
  return watchlistRevisionFrom(await readItems([watchlistRevisionKey(tenantId)]), tenantId)!;
}
