/**
 * Events and incidents linked both ways: the incident lists the event (`event_ids`), the event names
 * the incident (`incident_id`). A link or unlink writes both sides, the incident's timeline entry
 * (`linked`, `unlinked`), its audit entry and its `incident.updated` message in one transaction,
 * each side conditioned on what was read (the event's incident, the incident's version); a
 * concurrent change is read again and tried again.
 */
import { getIncidents, updateIncident, type Incident, type StoredIncident } from '../../db/incidents.js';
import { getEvents, setEventIncident, type StoredEvent } from '../../db/events.js';
import { ConditionFailed, type TransactItem } from '../../db/transact.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import type { Actor } from '../actor.js';
import {
  byOf,
  companions,
  INCIDENT_NOT_FOUND,
  openIncident,
  unionOf,
  type IncidentCreate,
  type IncidentView,
} from './incidents.js';

/** Events one incident may list: far under the item limit (each id is about 40 bytes). */
export const MAX_EVENTS_PER_INCIDENT = 500;

/** What a link changes: the incident the event leaves (with its zones without the event) and the one it joins. */
export interface LinkEnds {
  from: StoredIncident | null;
  /** The zones `from` keeps: its location's and those of the events it still lists. */
  fromZoneIds: string[];
  to: StoredIncident | null;
}

/**
 * The incidents event `eventId` leaves and joins, read in one round trip (and the events the one it
 * leaves still lists, for its zones, in another); `to` must be the tenant's.
 */
export async function linkEnds(
  tenantId: TenantId,
  eventId: string,
  from: string | null,
  to: string | null,
): Promise<LinkEnds> {
  const ids = [from, to].filter((id): id is string => id !== null);
  const found = ids.length > 0 ? await getIncidents(tenantId, ids) : new Map<string, StoredIncident>();
  // Another tenant's incident is answered as the unknown one it is here.
  if (to !== null && !found.get(to)) throw new NotFoundError(INCIDENT_NOT_FOUND);
  const left = from === null ? null : (found.get(from) ?? null);
  let fromZoneIds: string[] = [];
  if (left) {
    const staying = left.event_ids.filter((id) => id !== eventId);
    const events = staying.length > 0 ? await getEvents(tenantId, staying) : new Map<string, StoredEvent>();
    fromZoneIds = unionOf(left.location_zone_ids ?? [], ...[...events.values()].map((e) => e.matched_zone_ids));
  }
  return { from: left, fromZoneIds, to: to === null ? null : found.get(to)! };
}

/**
 * The incident side of moving `eventId` out of `from` and into `to` (either may be null): each
 * incident's new event list and timeline entry, under its version, with its companions.
 */
export function incidentSideOfLink(
  actor: Actor,
  at: string,
  event: Pick<StoredEvent, 'event_id' | 'matched_zone_ids'>,
  ends: LinkEnds,
): TransactItem[] {
  const { from, to } = ends;
  const eventId = event.event_id;
  const writes: TransactItem[] = [];
  if (to && !to.event_ids.includes(eventId)) {
    if (to.event_ids.length >= MAX_EVENTS_PER_INCIDENT) {
      throw new ConflictError(`An incident links at most ${MAX_EVENTS_PER_INCIDENT} events; this one has that many`);
    }
    writes.push(
      ...incidentWrites(
        actor,
        to,
        at,
        [...to.event_ids, eventId],
        unionOf(to.zone_ids, event.matched_zone_ids),
        'linked',
        eventId,
      ),
    );
  }
  if (from && from.incident_id !== to?.incident_id && from.event_ids.includes(eventId)) {
    writes.push(
      ...incidentWrites(
        actor,
        from,
        at,
        from.event_ids.filter((id) => id !== eventId),
        ends.fromZoneIds,
        'unlinked',
        eventId,
      ),
    );
  }
  return writes;
}

function incidentWrites(
  actor: Actor,
  current: StoredIncident,
  at: string,
  eventIds: string[],
  zoneIds: string[],
  kind: 'linked' | 'unlinked',
  eventId: string,
): TransactItem[] {
  const next: Incident = {
    ...current,
    event_ids: eventIds,
    zone_ids: zoneIds,
    history: [...current.history, { at, kind, by: byOf(actor), detail: { event_id: eventId } }],
    updated_at: at,
  };
  return [
    ...updateIncident(current, next, ['event_ids', 'zone_ids', 'history']),
    ...companions(actor, next, 'incident.updated', { event_ids: { from: current.event_ids, to: eventIds } }),
  ];
}

/**
 * Opens an incident listing the tenant's events named in `event_ids`, each linked to it in the same
 * transaction. An unknown event (or another tenant's) is 404; one that belongs to an incident
 * already is 409, at the read or, if it was linked meanwhile, at the write.
 */
export async function openIncidentWithEvents(
  actor: Actor,
  tenantId: TenantId,
  input: IncidentCreate,
  /** Who opens it (a workflow step), and its id when the opener decides it (a step tried again opens one incident). */
  opening: { source?: Incident['source']; incidentId?: string } = {},
): Promise<IncidentView> {
  const named = input.event_ids ?? [];
  const source = opening.source ?? 'manual';
  const id = opening.incidentId ? { incident_id: opening.incidentId } : {};
  if (named.length === 0) return openIncident(actor, tenantId, input, source, id);
  const events = await getEvents(tenantId, named);
  for (const [i, id] of named.entries()) {
    const event = events.get(id);
    // Which one by its place in the list: an unknown id and another tenant's are answered alike.
    if (!event) throw new NotFoundError(`Event not found (event_ids[${i}])`);
    if (event.incident_id) {
      throw new ConflictError(
        `Event ${id} belongs to incident ${event.incident_id}; move it with PATCH /api/v1/events/${id}/processed`,
      );
    }
  }
  try {
    const zoneIds = unionOf(...named.map((id) => events.get(id)!.matched_zone_ids));
    return await openIncident(
      actor,
      tenantId,
      input,
      source,
      { ...id, event_ids: [...named], zone_ids: zoneIds },
      (incidentId) => named.map((id) => setEventIncident(tenantId, id, null, incidentId)),
    );
  } catch (err) {
    if (err instanceof ConditionFailed)
      throw new ConflictError('An event named was linked to another incident at the same time; try again');
    throw err;
  }
}
