/**
 * Keeping the analytics counters from the table's stream, exactly once (the `count-analytics`
 * worker; docs/analytics.md):
 *
 * - a new event adds 1 (and its score) to the counter item of its day in each of its scopes, and
 *   1 to each threat it matched (shared/domain/threats/active.ts), with its marker in the same
 *   transaction: a record delivered again finds its marker and adds nothing;
 * - an incident's counters hold its contribution (shared/domain/analytics/counters.ts), a function of its
 *   state now; its applied-marker keeps the version and contribution applied last. A newer image
 *   adds (new - old) to the counters in one transaction with the marker moved to the new version,
 *   conditioned on the marker being as read: an older or repeated image changes nothing, and two
 *   workers cannot both apply the same change.
 */
import { eventFromItem } from '../../db/events.js';
import { threatCounterAdd } from '../../db/threats.js';
import {
  applyGuarded,
  appliedIncidentPut,
  eventCounterAdd,
  eventMarker,
  incidentCounterAdd,
  incidentRefId,
  MAX_TRANSACTION_ITEMS,
  readAppliedIncidents,
  type GuardedWrite,
  type IncidentRef,
} from '../../db/analytics.js';
import {
  contributionDelta,
  eventAdds,
  incidentContribution,
  type CountableIncident,
  type IncidentContribution,
} from './counters.js';

/** A table item to count (a stream record's new image) and the caller's id for it. */
export interface ItemToCount {
  id: string;
  item: Record<string, unknown>;
}

export interface CountOutcome {
  /** Things whose counters were written now. */
  counted: number;
  /** Things counted before (a record seen again, an older image). */
  skipped: number;
  /** Ids (of ItemToCount) not counted: to be tried again. */
  failed: { id: string; reason: string }[];
}

const reasonOf = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/** Counter items one event's marker shares a transaction with, at most: its share is split past it. */
const COUNTERS_PER_MARKER = MAX_TRANSACTION_ITEMS - 1;

export async function countEvents(items: readonly ItemToCount[], nowMs = Date.now()): Promise<CountOutcome> {
  const writes: GuardedWrite[] = [];
  const failed: CountOutcome['failed'] = [];
  /** The first record of each event -> the ids of its other records in this batch (one transaction may not write a marker twice). */
  const repeats = new Map<string, string[]>();
  const firstOf = new Map<string, string>();
  for (const { id, item } of items) {
    const event = eventFromItem(item);
    const occurredAt = event.occurred_at ?? event.received_at;
    if (!event.tenant_id || !event.event_id || !event.type || !occurredAt || Number.isNaN(Date.parse(occurredAt))) {
      failed.push({ id, reason: `event item ${String(item.PK)}/${String(item.SK)} lacks tenant, id, type or time` });
      continue;
    }
    const key = `${event.tenant_id}\u0000${event.event_id}`;
    const first = firstOf.get(key);
    if (first !== undefined) {
      repeats.get(first)!.push(id);
      continue;
    }
    firstOf.set(key, id);
    repeats.set(id, []);
    const { day, scopes, add } = eventAdds({
      type: event.type,
      occurredAt,
      environmentId: event.environment_id,
      zoneIds: event.matched_zone_ids,
      threatScore: event.threat_score,
    });
    const counters = [
      ...scopes.map((scope) => eventCounterAdd(event.tenant_id, scope, day, add)),
      // The threats it matched count it with the same marker (shared/domain/threats/active.ts).
      ...event.matched_signatures.map((m) => threatCounterAdd(event.tenant_id, m, occurredAt)),
    ];
    // An event in more zones than a transaction holds counts in parts, each with a marker of its own.
    for (let part = 0; part * COUNTERS_PER_MARKER < counters.length; part++) {
      writes.push({
        id,
        guard: eventMarker(event.tenant_id, event.event_id, part, nowMs),
        counters: counters.slice(part * COUNTERS_PER_MARKER, (part + 1) * COUNTERS_PER_MARKER),
      });
    }
  }
  const outcome = await applyGuarded(writes);
  const failedIds = new Set(outcome.failed.map((f) => f.id));
  for (const id of failedIds) {
    const reason = reasonOf(outcome.failed.find((f) => f.id === id)!.error);
    for (const each of [id, ...(repeats.get(id) ?? [])]) failed.push({ id: each, reason });
  }
  const applied = new Set(outcome.applied.filter((id) => !failedIds.has(id)));
  const refused = new Set(outcome.refused.filter((id) => !failedIds.has(id) && !applied.has(id)));
  const repeated = [...repeats].filter(([id]) => !failedIds.has(id)).reduce((n, [, more]) => n + more.length, 0);
  return { counted: applied.size, skipped: refused.size + repeated, failed };
}

interface IncidentImage {
  ref: IncidentRef;
  version: number;
  incident: CountableIncident;
  /** The ids of every item of this incident in the batch (its records). */
  ids: string[];
}

/** How often an incident whose marker moved meanwhile is read and tried again in one call. */
const INCIDENT_ROUNDS = 3;

export async function countIncidents(items: readonly ItemToCount[]): Promise<CountOutcome> {
  const failed: CountOutcome['failed'] = [];
  // The newest image of each incident: what it contributes depends on its state now only.
  const latest = new Map<string, IncidentImage>();
  for (const { id, item } of items) {
    const version = Number(item.version);
    const ref = { tenantId: String(item.tenant_id ?? ''), incidentId: String(item.incident_id ?? '') };
    if (
      !ref.tenantId ||
      !ref.incidentId ||
      !Number.isInteger(version) ||
      typeof item.created_at !== 'string' ||
      !item.status ||
      !item.severity
    ) {
      failed.push({
        id,
        reason: `incident item ${String(item.PK)}/${String(item.SK)} lacks tenant, id, version, created_at, status or severity`,
      });
      continue;
    }
    const key = incidentRefId(ref);
    const seen = latest.get(key);
    const incident = {
      ...(item as unknown as CountableIncident),
      history: Array.isArray(item.history) ? (item.history as CountableIncident['history']) : [],
    };
    if (!seen || version > seen.version) latest.set(key, { ref, version, incident, ids: [...(seen?.ids ?? []), id] });
    else seen.ids.push(id);
  }

  let counted = 0;
  let skipped = 0;
  let todo = [...latest.values()];
  for (let round = 0; round < INCIDENT_ROUNDS && todo.length > 0; round++) {
    const applied = await readAppliedIncidents<IncidentContribution>(todo.map((t) => t.ref));
    const writes: GuardedWrite[] = [];
    for (const t of todo) {
      const previous = applied.get(incidentRefId(t.ref));
      if (previous && previous.version >= t.version) {
        skipped++;
        continue;
      }
      const contribution = incidentContribution(t.incident);
      const delta = contributionDelta(previous?.contribution ?? null, contribution);
      writes.push({
        id: incidentRefId(t.ref),
        // The marker moves even when nothing else changes, so an older image never applies after it.
        guard: appliedIncidentPut(t.ref, t.version, contribution, previous?.version ?? null),
        counters: [...delta].map(([hour, add]) => incidentCounterAdd(t.ref.tenantId, hour, add)),
      });
    }
    const outcome = await applyGuarded(writes);
    counted += outcome.applied.length;
    const byId = new Map(todo.map((t) => [incidentRefId(t.ref), t]));
    for (const f of outcome.failed)
      for (const id of byId.get(f.id)!.ids) failed.push({ id, reason: reasonOf(f.error) });
    // Its marker changed since it was read: read again, and apply what is still newer.
    todo = outcome.refused.map((id) => byId.get(id)!);
  }
  for (const t of todo)
    for (const id of t.ids) failed.push({ id, reason: 'its applied-marker kept changing meanwhile' });
  return { counted, skipped, failed };
}
