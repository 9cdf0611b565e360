/**
 * Threat libraries: a tenant's named sets of threat definitions, by vertical. A definition says
 * what an event must be and carry to match (shared/schemas/threat-libraries.ts); the matcher at
 * ingest reads the tenant's active ones. Here: their checks beyond the schema (ids unique in a
 * library, conditions that can hold), their changes with audit entries, the seed of four
 * libraries, and the compact view for intelligence consumers.
 */
import { v5 as uuidV5 } from 'uuid';
import { auditEntry, auditPut, type AuditEntry } from '../../db/audit/index.js';
import type { PageRequest } from '../../db/query.js';
import {
  allLibraries,
  deleteLibraryItems,
  getLibrary,
  libraryWrites,
  listLibraries as listStored,
  publicLibrary,
  type LibraryFilter,
  type StoredThreatLibrary,
  type ThreatDefinition,
  type ThreatLibrary,
  type ThreatMatch,
} from '../../db/threat-libraries.js';
import { ConditionFailed, retryOnConcurrentChange, transactWrite } from '../../db/transact.js';
import { ConflictError, invalid, NotFoundError, PayloadTooLargeError, type Loc } from '../../errors.js';
import { newTimeId, now } from '../../ids.js';
import { EVENT_TYPES } from '../../vocabulary/event-types.js';
import type { InputOf } from '../../schemas/json-schema.js';
import {
  MAX_DEFINITIONS_PER_LIBRARY,
  MAX_LIBRARIES_PER_TENANT,
  MAX_LIBRARY_BYTES,
  type threatDefinitionInput,
  type threatLibraryCreate,
  type threatLibraryUpdate,
} from '../../schemas/threat-libraries.js';
import { INCIDENT_SEVERITIES, type IncidentSeverity } from '../../vocabulary/incidents.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { THREAT_LIBRARY_NOT_FOUND } from '../../vocabulary/threat-libraries.js';
import type { Actor } from '../actor.js';
import { diff } from '../diff.js';
import { SEED_LIBRARIES } from './seed.js';

export type { LibraryFilter, ThreatDefinition, ThreatLibrary } from '../../db/threat-libraries.js';
export type ThreatLibraryCreate = InputOf<typeof threatLibraryCreate>;
export type ThreatLibraryUpdate = InputOf<typeof threatLibraryUpdate>;
type DefinitionInput = InputOf<typeof threatDefinitionInput>;

export { THREAT_LIBRARY_NOT_FOUND };

const RESOURCE = 'threat_library';

async function findStored(tenantId: TenantId, libraryId: string): Promise<StoredThreatLibrary> {
  const stored = await getLibrary(tenantId, libraryId);
  if (!stored) throw new NotFoundError(THREAT_LIBRARY_NOT_FOUND);
  return stored;
}

// ---------------------------------------------------------------------------------------------
// Definitions: ids, and conditions that can hold

const MAX_ID_LENGTH = 64;

/** Latin letters that no decomposition takes apart, spelled as they are usually transliterated. */
const SPELLED: Readonly<Record<string, string>> = {
  æ: 'ae',
  ø: 'o',
  œ: 'oe',
  ß: 'ss',
  ð: 'd',
  đ: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
};

/** A definition id made from a name: its letters and digits, lower case, without accents, joined by dashes. */
export function slugOf(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[æøœßðđłþı]/g, (c) => SPELLED[c] ?? c)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, MAX_ID_LENGTH)
    .replace(/-+$/, '');
  return slug || 'definition';
}

/** `base`, or `base-2`, `base-3`, ... : the first not in `taken`. */
function unusedId(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const id = `${base.slice(0, MAX_ID_LENGTH - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!taken.has(id)) return id;
  }
}

interface Bound {
  value: number;
  inclusive: boolean;
}

/**
 * Checks a match's conditions beyond the schema: each must be able to hold. A window of no time,
 * a keyword that can never be a whole word, and thresholds on one field that no number passes
 * together are refused (422 at the condition), rather than stored as a definition that never matches.
 */
function checkMatch(match: ThreatMatch, loc: Loc): void {
  if (match.hours && match.hours.start === match.hours.end) {
    throw invalid([...loc, 'hours', 'end'], 'must differ from start: the window would hold no time', 'value_error');
  }
  match.keywords?.forEach((keyword, i) => {
    if (!/[\p{L}\p{N}]/u.test(keyword))
      throw invalid(
        [...loc, 'keywords', i],
        'has no letter or digit: it can never match as a whole word',
        'value_error',
      );
  });
  const ranges = new Map<string, { low: Bound; high: Bound }>();
  match.payload?.forEach((threshold, i) => {
    const range = ranges.get(threshold.field) ?? {
      low: { value: -Infinity, inclusive: false },
      high: { value: Infinity, inclusive: false },
    };
    const { op, value } = threshold;
    if (op === 'gt' || op === 'gte' || op === 'eq')
      range.low = tighter(range.low, { value, inclusive: op !== 'gt' }, 1);
    if (op === 'lt' || op === 'lte' || op === 'eq')
      range.high = tighter(range.high, { value, inclusive: op !== 'lt' }, -1);
    const empty =
      range.low.value > range.high.value ||
      (range.low.value === range.high.value && !(range.low.inclusive && range.high.inclusive));
    if (empty)
      throw invalid(
        [...loc, 'payload', i],
        `no number of ${threshold.field} passes this and the thresholds before it on the same field`,
        'value_error',
      );
    ranges.set(threshold.field, range);
  });
}

/** The stricter of two bounds: the higher low (`direction` 1) or the lower high (-1); exclusive on a tie. */
function tighter(current: Bound, next: Bound, direction: 1 | -1): Bound {
  if (next.value === current.value) return { value: next.value, inclusive: next.inclusive && current.inclusive };
  return (next.value - current.value) * direction > 0 ? next : current;
}

/**
 * The definitions as stored: every field present, ids given kept (unique, or 422 naming the
 * second), ids not given made from the name and made unique, conditions checked.
 */
export function definitionsFrom(
  inputs: readonly DefinitionInput[],
  loc: Loc = ['body', 'definitions'],
): ThreatDefinition[] {
  const given = new Map<string, number>();
  inputs.forEach((input, i) => {
    if (input.definition_id === undefined) return;
    const first = given.get(input.definition_id);
    if (first !== undefined)
      throw invalid(
        [...loc, i, 'definition_id'],
        `is the id of definition ${first} already: ids are unique within a library`,
        'duplicate',
      );
    given.set(input.definition_id, i);
  });
  const taken = new Set(given.keys());
  return inputs.map((input, i) => {
    checkMatch(input.match, [...loc, i, 'match']);
    const definitionId = input.definition_id ?? unusedId(slugOf(input.name), taken);
    taken.add(definitionId);
    return {
      definition_id: definitionId,
      name: input.name.trim(),
      description: input.description ?? '',
      severity: input.severity,
      weight: input.weight,
      active: input.active ?? true,
      match: input.match,
      indicators: input.indicators ?? null,
    };
  });
}

/** A library must fit in one item (DynamoDB's 400 KB): 413 when its definitions take more. */
function checkSize(library: Omit<StoredThreatLibrary, 'version'>): void {
  const bytes = Buffer.byteLength(JSON.stringify(library));
  if (bytes > MAX_LIBRARY_BYTES) {
    throw new PayloadTooLargeError(
      `The library would take ${Math.ceil(bytes / 1024)} KB, over the ${MAX_LIBRARY_BYTES / 1024} KB a library holds: split its definitions (or their indicator lists) over several libraries`,
    );
  }
}

const limitReached = (adding = 1) =>
  new ConflictError(
    `A tenant has at most ${MAX_LIBRARIES_PER_TENANT} threat libraries${adding > 1 ? `; this would add ${adding}` : ''}: delete one first`,
  );

// ---------------------------------------------------------------------------------------------
// Audit entries: what changed, without the definitions' whole content

const idsOf = (definitions: readonly ThreatDefinition[]) => definitions.map((d) => d.definition_id);

function createdChanges(library: Omit<StoredThreatLibrary, 'version'>): Record<string, unknown> {
  return {
    name: library.name,
    vertical: library.vertical,
    active: library.active,
    ...(library.seed_key ? { seed_key: library.seed_key } : {}),
    definitions: idsOf(library.definitions),
  };
}

/** Definitions added, removed and changed (by id); undefined when none. */
function definitionChanges(
  before: readonly ThreatDefinition[],
  after: readonly ThreatDefinition[],
): { added: string[]; removed: string[]; changed: string[] } | undefined {
  const old = new Map(before.map((d) => [d.definition_id, JSON.stringify(d)]));
  const kept = new Set(idsOf(after));
  const added = after.filter((d) => !old.has(d.definition_id)).map((d) => d.definition_id);
  const removed = idsOf(before).filter((id) => !kept.has(id));
  const changed = after
    .filter((d) => old.has(d.definition_id) && old.get(d.definition_id) !== JSON.stringify(d))
    .map((d) => d.definition_id);
  return added.length + removed.length + changed.length > 0 ? { added, removed, changed } : undefined;
}

const audited = (
  actor: Actor,
  tenantId: TenantId,
  action: string,
  libraryId: string,
  changes: Record<string, unknown>,
): AuditEntry => auditEntry(actor, { tenantId, action, resourceType: RESOURCE, resourceId: libraryId, changes });

// ---------------------------------------------------------------------------------------------
// The routes' operations

export async function createLibrary(
  actor: Actor,
  tenantId: TenantId,
  input: ThreatLibraryCreate,
): Promise<ThreatLibrary> {
  const at = now();
  const library: Omit<StoredThreatLibrary, 'version'> = {
    library_id: newTimeId(),
    tenant_id: tenantId,
    name: input.name.trim(),
    description: input.description ?? '',
    vertical: input.vertical,
    active: input.active ?? true,
    seed_key: null,
    definitions: definitionsFrom(input.definitions ?? []),
    created_at: at,
    updated_at: at,
  };
  checkSize(library);
  const audit = audited(actor, tenantId, 'threat_library.created', library.library_id, createdChanges(library));
  try {
    await transactWrite([...libraryWrites(tenantId, { created: [library] }), auditPut(audit)]);
  } catch (err) {
    // Item 1 is the count: the tenant has its 20.
    if (err instanceof ConditionFailed && err.index === 1) throw limitReached();
    throw err;
  }
  return publicLibrary(library);
}

export async function findLibrary(tenantId: TenantId, libraryId: string): Promise<ThreatLibrary> {
  return publicLibrary(await findStored(tenantId, libraryId));
}

export async function listLibraries(
  tenantId: TenantId,
  filter: LibraryFilter,
  page: PageRequest,
): Promise<ThreatLibrary[]> {
  return (await listStored(tenantId, filter, page)).map(publicLibrary);
}

export async function updateLibrary(
  actor: Actor,
  tenantId: TenantId,
  libraryId: string,
  input: ThreatLibraryUpdate,
): Promise<ThreatLibrary> {
  const definitions = input.definitions ? definitionsFrom(input.definitions) : undefined;
  return retryOnConcurrentChange(async () => {
    const current = await findStored(tenantId, libraryId);
    const next: StoredThreatLibrary = {
      ...current,
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.vertical !== undefined ? { vertical: input.vertical } : {}),
      ...(input.active !== undefined ? { active: input.active } : {}),
      ...(definitions ? { definitions } : {}),
      updated_at: now(),
    };
    const changes: Record<string, unknown> = diff(publicLibrary(current), publicLibrary(next), [
      'updated_at',
      'definitions',
    ]);
    const changedDefinitions = definitionChanges(current.definitions, next.definitions);
    if (changedDefinitions) changes.definitions = changedDefinitions;
    if (Object.keys(changes).length === 0) return publicLibrary(current);
    checkSize(next);
    const audit = audited(actor, tenantId, 'threat_library.updated', libraryId, changes);
    await transactWrite([...libraryWrites(tenantId, { updated: [next] }), auditPut(audit)]);
    return publicLibrary(next);
  });
}

export async function deleteLibrary(actor: Actor, tenantId: TenantId, libraryId: string): Promise<void> {
  await retryOnConcurrentChange(async () => {
    const current = await findStored(tenantId, libraryId);
    const audit = audited(actor, tenantId, 'threat_library.deleted', libraryId, {
      name: current.name,
      vertical: current.vertical,
      definitions: idsOf(current.definitions),
    });
    await transactWrite([...deleteLibraryItems(current), auditPut(audit)]);
  });
}

// ---------------------------------------------------------------------------------------------
// The seed

export interface SeedResult {
  created: { libraries: number; definitions: number };
  skipped: { libraries: string[]; definitions: string[] };
  libraries: string[];
}

/** Names the ids of seeded libraries: a fixed namespace, so an id follows from tenant and seed key. */
const SEED_NAMESPACE = '3c89b5a3-8a1b-4508-a809-865aa784b351';

/**
 * A seeded library's id, the same on every seed of the tenant: two seeds at once both try to
 * create the same item, and one of them finds it made (the other's transaction fails whole).
 */
export const seedLibraryId = (tenantId: TenantId, seedKey: string): string =>
  uuidV5(`${tenantId}/${seedKey}`, SEED_NAMESPACE);

/**
 * Creates the seed's libraries the tenant lacks (found by `seed_key`) and, in those it has, the
 * seed's definitions it lacks (by `definition_id`), in one transaction with an audit entry per
 * library created or changed. What the tenant has is left as it is, however it was changed since:
 * a renamed library, a switched-off or edited definition. A definition the tenant deleted from a
 * seeded library is created again; a seeded library it deleted is created again, whole.
 */
export async function seedLibraries(actor: Actor, tenantId: TenantId): Promise<SeedResult> {
  let libraryItems = 0;
  return retryOnConcurrentChange(
    async () => {
      const bySeedKey = new Map(
        (await allLibraries(tenantId)).filter((l) => l.seed_key !== null).map((l) => [l.seed_key, l]),
      );
      const at = now();
      const result: SeedResult = {
        created: { libraries: 0, definitions: 0 },
        skipped: { libraries: [], definitions: [] },
        libraries: [],
      };
      const created: Omit<StoredThreatLibrary, 'version'>[] = [];
      const updated: StoredThreatLibrary[] = [];
      const audits: AuditEntry[] = [];
      for (const seed of SEED_LIBRARIES) {
        const definitions = definitionsFrom(seed.definitions);
        const found = bySeedKey.get(seed.seed_key);
        if (!found) {
          const library = {
            library_id: seedLibraryId(tenantId, seed.seed_key),
            tenant_id: tenantId,
            name: seed.name,
            description: seed.description,
            vertical: seed.vertical,
            active: true,
            seed_key: seed.seed_key,
            definitions,
            created_at: at,
            updated_at: at,
          };
          created.push(library);
          result.created.libraries++;
          result.created.definitions += definitions.length;
          result.libraries.push(library.library_id);
          audits.push(
            audited(actor, tenantId, 'threat_library.created', library.library_id, {
              ...createdChanges(library),
              via: 'seed',
            }),
          );
          continue;
        }
        result.libraries.push(found.library_id);
        result.skipped.libraries.push(found.library_id);
        const has = new Set(idsOf(found.definitions));
        const missing = definitions.filter((d) => !has.has(d.definition_id));
        result.skipped.definitions.push(...idsOf(definitions).filter((id) => has.has(id)));
        if (missing.length === 0) continue;
        if (found.definitions.length + missing.length > MAX_DEFINITIONS_PER_LIBRARY) {
          throw new ConflictError(
            `The seeded library "${found.name}" holds ${found.definitions.length} definitions; the seed's ${missing.length} missing ones would pass the ${MAX_DEFINITIONS_PER_LIBRARY} a library holds: delete some first`,
          );
        }
        const next = { ...found, definitions: [...found.definitions, ...missing], updated_at: at };
        checkSize(next);
        updated.push(next);
        result.created.definitions += missing.length;
        audits.push(
          audited(actor, tenantId, 'threat_library.updated', found.library_id, {
            definitions: { added: idsOf(missing), removed: [], changed: [] },
            via: 'seed',
          }),
        );
      }
      if (created.length + updated.length === 0) return result;
      libraryItems = updated.length + created.length;
      try {
        await transactWrite([...libraryWrites(tenantId, { updated, created }), ...audits.map(auditPut)]);
      } catch (err) {
        // The item after the libraries is the count (when any is created): the tenant's limit.
        if (err instanceof ConditionFailed && created.length > 0 && err.index === libraryItems)
          throw limitReached(created.length);
        throw err;
      }
      return result;
    },
    // A library changed, or created, by another request since it was read: read again.
    (index) => index < libraryItems,
  );
}

// ---------------------------------------------------------------------------------------------
// The intelligence view

export interface ThreatLibrarySummary {
  library_id: string;
  name: string;
  vertical: string;
  active: boolean;
  seed_key: string | null;
  definition_count: number;
  active_definition_count: number;
  active_by_severity: Record<IncidentSeverity, number>;
  event_types: string[];
  updated_at: string;
}

/** A library summed up: how many definitions, how many active, of which severities, watching which event types. */
export function summaryOf(library: ThreatLibrary): ThreatLibrarySummary {
  const active = library.definitions.filter((d) => d.active);
  const watched = new Set<string>(active.flatMap((d) => d.match.event_types));
  return {
    library_id: library.library_id,
    name: library.name,
    vertical: library.vertical,
    active: library.active,
    seed_key: library.seed_key,
    definition_count: library.definitions.length,
    active_definition_count: active.length,
    active_by_severity: Object.fromEntries(
      INCIDENT_SEVERITIES.map((s) => [s, active.filter((d) => d.severity === s).length]),
    ) as Record<IncidentSeverity, number>,
    event_types: EVENT_TYPES.filter((t) => watched.has(t)),
    updated_at: library.updated_at,
  };
}

export async function listLibrarySummaries(
  tenantId: TenantId,
  filter: LibraryFilter,
  page: PageRequest,
): Promise<ThreatLibrarySummary[]> {
  return (await listStored(tenantId, filter, page)).map(summaryOf);
}
