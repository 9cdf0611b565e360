/**
 * A tenant's watchlist (docs/watchlist.md): the vessels, infrastructure lines, IP addresses and
 * ranges, domains, autonomous systems and countries it watches. Here: reading entries and
 * removing them, audited in the transaction. Adding is shared/domain/watchlist/add.ts (it reads
 * lines from S3, which these routes need not carry); what touches an entry is the matcher's
 * (shared/domain/watchlist/match.ts).
 */
import { auditEntry, auditPut } from '../../db/audit/index.js';
import type { PageRequest } from '../../db/query.js';
import { retryOnConcurrentChange, transactWrite } from '../../db/transact.js';
import {
  getWatchlistEntry,
  listWatchlistEntries,
  publicEntry,
  watchlistRemoveWrites,
  type StoredWatchlistEntry,
  type WatchlistEntry,
} from '../../db/watchlist/index.js';
import { NotFoundError } from '../../errors.js';
import type { CallerActor } from '../../vocabulary/actor.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { WATCHLIST_ENTRY_NOT_FOUND, type WatchlistEntityType } from '../../vocabulary/watchlist.js';

export type { WatchedLine, WatchlistEntry } from '../../db/watchlist/index.js';

/** The resource type of the entries' audit entries. */
export const WATCHLIST_RESOURCE = 'watchlist_entry';

async function findStored(tenantId: TenantId, entryId: string): Promise<StoredWatchlistEntry> {
  const stored = await getWatchlistEntry(tenantId, entryId);
  if (!stored) throw new NotFoundError(WATCHLIST_ENTRY_NOT_FOUND);
  return stored;
}

export async function findWatchlistEntry(tenantId: TenantId, entryId: string): Promise<WatchlistEntry> {
  return publicEntry(await findStored(tenantId, entryId));
}

export async function listWatchlist(
  tenantId: TenantId,
  filter: { entityType?: WatchlistEntityType },
  page: PageRequest,
): Promise<WatchlistEntry[]> {
  return (await listWatchlistEntries(tenantId, filter, page)).map(publicEntry);
}

export async function removeWatchlistEntry(actor: CallerActor, tenantId: TenantId, entryId: string): Promise<void> {
  await retryOnConcurrentChange(async () => {
    const current = await findStored(tenantId, entryId);
    const audit = auditEntry(actor, {
      tenantId,
      action: 'watchlist_entry.deleted',
      resourceType: WATCHLIST_RESOURCE,
      resourceId: entryId,
      changes: { entity_type: current.entity_type, value: current.value, label: current.label },
    });
    await transactWrite([...watchlistRemoveWrites(current), auditPut(audit)]);
  });
}
