/**
 * Adding to a tenant's watchlist (docs/watchlist.md): the value normalised
 * (shared/domain/watchlist/values.ts), a line's name, kind and vertices copied from the tenant's
 * own file, the entry, its count, the entity's item and the revision written with the audit
 * entry in one transaction. Apart from shared/domain/watchlist/entries.ts because it reads lines from S3.
 */
import { auditEntry, auditPut } from '../../db/audit/index.js';
import { ConditionFailed, transactWrite } from '../../db/transact.js';
import {
  WATCHLIST_ADD_LIMIT_INDEX,
  WATCHLIST_ADD_WATCHED_INDEX,
  watchingEntryId,
  watchlistAddWrites,
  type WatchedLine,
  type WatchlistEntry,
} from '../../db/watchlist/index.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import { newTimeId, now } from '../../ids.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { watchlistEntryCreate } from '../../schemas/watchlist/index.js';
import type { CallerActor } from '../../vocabulary/actor.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import {
  MAX_WATCHED_LINE_VERTICES,
  MAX_WATCHLIST_ENTRIES,
  WATCHED_LINE_NOT_FOUND,
  type WatchlistEntityType,
} from '../../vocabulary/watchlist.js';
import { findLine, kindOf } from '../infrastructure/index.js';
import { WATCHLIST_RESOURCE } from './entries.js';
import { lineRefOf, thinVertices, watchedValueOf } from './values.js';

export type WatchlistEntryCreate = InputOf<typeof watchlistEntryCreate>;

/** The line a `line` entry names, as the entry keeps it; 404 when the tenant has no such line. */
async function watchedLine(tenantId: TenantId, value: string): Promise<WatchedLine> {
  const ref = lineRefOf(value)!;
  const found = await findLine(tenantId, ref.file_id, ref.line_id);
  if (!found) throw new NotFoundError(WATCHED_LINE_NOT_FOUND);
  const { vertices, thinned } = thinVertices(found.line.coordinates, MAX_WATCHED_LINE_VERTICES);
  return {
    file_id: ref.file_id,
    line_id: ref.line_id,
    environment_id: found.file.environment_id,
    name: found.line.name,
    kind: kindOf(found.file, ref.line_id),
    vertices,
    thinned,
    source_vertices: found.line.coordinates.length,
  };
}

/** Free text as kept: trimmed, null when absent or blank. */
const textOrNull = (text: string | undefined) => text?.trim() || null;

async function watchedAlready(
  tenantId: TenantId,
  type: WatchlistEntityType,
  value: string | number,
): Promise<ConflictError> {
  const entryId = await watchingEntryId(tenantId, type, value);
  return new ConflictError(`The ${type} ${value} is watched already${entryId ? ` (entry ${entryId})` : ''}`);
}

export async function addWatchlistEntry(
  actor: CallerActor,
  tenantId: TenantId,
  input: WatchlistEntryCreate,
): Promise<WatchlistEntry> {
  const value = watchedValueOf(input.entity_type, input.value);
  const entry: WatchlistEntry = {
    entry_id: newTimeId(),
    tenant_id: tenantId,
    entity_type: input.entity_type,
    value,
    label: textOrNull(input.label),
    note: textOrNull(input.note),
    line: input.entity_type === 'line' ? await watchedLine(tenantId, value as string) : null,
    created_at: now(),
    created_by: actor.principal.userId,
  };
  const line = entry.line
    ? { line: { name: entry.line.name, kind: entry.line.kind, thinned: entry.line.thinned } }
    : {};
  const audit = auditEntry(actor, {
    tenantId,
    action: 'watchlist_entry.created',
    resourceType: WATCHLIST_RESOURCE,
    resourceId: entry.entry_id,
    changes: { entity_type: entry.entity_type, value, label: entry.label, ...line },
  });
  try {
    await transactWrite([...watchlistAddWrites(entry), auditPut(audit)]);
  } catch (err) {
    if (!(err instanceof ConditionFailed)) throw err;
    // Both may fail at once: being watched already says more than the limit.
    if (err.indexes.includes(WATCHLIST_ADD_WATCHED_INDEX))
      throw await watchedAlready(tenantId, entry.entity_type, value);
    if (err.indexes.includes(WATCHLIST_ADD_LIMIT_INDEX))
      throw new ConflictError(`A tenant watches at most ${MAX_WATCHLIST_ENTRIES} entities: remove an entry first`);
    throw err;
  }
  return entry;
}
