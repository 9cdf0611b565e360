/** Reading events, and an operator marking one processed. */
import { auditEntry, auditPut } from '../../db/audit/index.js';
import {
  getEvent,
  listEvents as listStoredEvents,
  markProcessedUpdate,
  type EventPage,
  type StoredEvent,
} from '../../db/events.js';
import { getSiteEntity, SITE_KINDS, type Zone } from '../../db/site-entities.js';
import { ZONE_NOT_FOUND, ENVIRONMENT_NOT_FOUND } from '../sites/index.js';
import type { PageRequest } from '../../db/query.js';
import { retryOnConcurrentChange, transactWrite } from '../../db/transact.js';
import { incidentSideOfLink, linkEnds } from '../incidents/index.js';
import { invalid, NotFoundError } from '../../errors.js';
import { now, timeIdBound, timeOfId } from '../../ids.js';
import { retentionFloorMs } from '../accounts/index.js';
import type { TenantPlan } from '../../vocabulary/plans.js';
import type { Actor } from '../actor.js';
import { getEnvironment } from '../../db/environments.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { eventListQuery, eventProcessedUpdate } from '../../schemas/events.js';
import type { TenantId } from '../../vocabulary/tenant.js';

export const EVENT_NOT_FOUND = 'Event not found';

export type EventFilter = Omit<InputOf<typeof eventListQuery>, 'limit' | 'offset'>;

/**
 * Newest first. Dates bound the event ids (UUIDv7, made when the event was received); both
 * bounds are inclusive. A zone is read first (404 when it is not the tenant's): its environment's
 * index serves the read, its id filters it. Events received before the tenant `plan`'s retention
 * are not shown (docs/plans.md), whether or not DynamoDB's TTL has removed them yet.
 */
export async function listEvents(
  tenantId: TenantId,
  filter: EventFilter,
  page: PageRequest,
  plan: TenantPlan,
): Promise<
  EventPage & {
    /** When the read limit was reached: the receipt time (ISO) of the oldest event read. */ readBackTo?: string;
  }
> {
  const asked = filter.start_date ? Date.parse(filter.start_date) : undefined;
  const to = filter.end_date ? Date.parse(filter.end_date) : undefined;
  if (asked !== undefined && to !== undefined && asked > to) {
    throw invalid(['query', 'end_date'], 'must not be before start_date', 'value_error');
  }
  const floor = retentionFloorMs(plan);
  const from = floor === null ? asked : Math.max(asked ?? floor, floor);
  // A range wholly before the retention: nothing it holds is shown.
  if (from !== undefined && to !== undefined && from > to) return { events: [], readLimitReached: false };
  let environmentId = filter.environment_id;
  if (filter.zone_id) {
    const zone = await getSiteEntity<Zone>(SITE_KINDS.zone, tenantId, filter.zone_id);
    if (!zone) throw new NotFoundError(ZONE_NOT_FOUND);
    // A zone of another environment than the one named: nothing can match both.
    if (environmentId !== undefined && environmentId !== zone.environment_id)
      return { events: [], readLimitReached: false };
    environmentId = zone.environment_id;
  }
  const result = await listStoredEvents(
    tenantId,
    {
      environmentId,
      type: filter.type,
      processed: filter.processed,
      zoneId: filter.zone_id,
      minScore: filter.min_score,
      source: filter.source,
      fromId: from !== undefined ? timeIdBound(from, 'low') : undefined,
      toId: to !== undefined ? timeIdBound(to, 'high') : undefined,
      matches: filter.q !== undefined ? textMatch(filter.q) : undefined,
    },
    page,
  );
  // A filter naming an environment that is not the tenant's is answered as the unknown it is;
  // a page with events of it shows it exists without a read.
  if (result.events.length === 0 && filter.environment_id && !(await getEnvironment(tenantId, filter.environment_id))) {
    throw new NotFoundError(ENVIRONMENT_NOT_FOUND);
  }
  // How far back a page that stopped at its read limit looked: when the oldest event it read was received.
  const { readBackTo, ...rest } = result;
  return readBackTo ? { ...rest, readBackTo: new Date(timeOfId(readBackTo)).toISOString() } : rest;
}

/**
 * The free-text test of `q`: every word (split on white space) appears, case-insensitively, in
 * the event's description, type, source, or a string or number of its payload at any depth
 * (inside nested objects and arrays too).
 */
export function textMatch(q: string): (event: StoredEvent) => boolean {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  return (event) => {
    const text = [event.description, event.type, event.source, ...payloadValues(event.payload)]
      .filter((v) => v !== null && v !== undefined)
      .join(' ')
      .toLowerCase();
    return words.every((w) => text.includes(w));
  };
}

/** The strings and numbers of a payload at every depth, walked without recursion. */
function payloadValues(payload: unknown): Array<string | number> {
  const values: Array<string | number> = [];
  const pending: unknown[] = [payload];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string' || typeof value === 'number') values.push(value);
    else if (value && typeof value === 'object') pending.push(...Object.values(value as Record<string, unknown>));
  }
  return values.reverse();
}

/** Whether the tenant's plan shows the event of this id (received within its retention). */
export function withinRetention(eventId: string, plan: TenantPlan): boolean {
  const floor = retentionFloorMs(plan);
  return floor === null || timeOfId(eventId) >= floor;
}

export async function findEvent(
  actor: Actor,
  eventId: string,
  tenantId: TenantId,
  plan: TenantPlan,
): Promise<StoredEvent> {
  const event = withinRetention(eventId, plan) ? await getEvent(tenantId, eventId) : null;
  if (!event) throw new NotFoundError(EVENT_NOT_FOUND);
  const { content_hash: _h, ...rest } = event;
  return rest;
}

export type ProcessedUpdate = InputOf<typeof eventProcessedUpdate>;

/**
 * Marks an event processed (or not), with an operator's score; naming an incident (or null) links
 * the event to it both ways, moving it from the incident it was in (shared/domain/incidents/event-links.ts).
 */
export async function markProcessed(
  actor: Actor,
  eventId: string,
  tenantId: TenantId,
  update: ProcessedUpdate,
  plan: TenantPlan,
): Promise<StoredEvent> {
  if (!withinRetention(eventId, plan)) throw new NotFoundError(EVENT_NOT_FOUND);
  // Conditions on what was read: the event's incident (item 0), each incident's version.
  await retryOnConcurrentChange(
    async () => {
      const current = await getEvent(tenantId, eventId);
      if (!current) throw new NotFoundError(EVENT_NOT_FOUND);
      const moves = update.incident_id !== undefined && update.incident_id !== current.incident_id;
      const ends = moves
        ? await linkEnds(tenantId, eventId, current.incident_id, update.incident_id ?? null)
        : { from: null, fromZoneIds: [], to: null };
      const at = now();
      const changes = Object.fromEntries(
        Object.entries({
          processed: update.processed,
          threat_score: update.threat_score,
          incident_id: update.incident_id,
        })
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, { from: (current as unknown as Record<string, unknown>)[k] ?? null, to: v }]),
      );
      await transactWrite([
        markProcessedUpdate(tenantId, current, update, at),
        auditPut(
          auditEntry(actor, {
            tenantId,
            action: 'event.processed',
            resourceType: 'event',
            resourceId: eventId,
            changes,
          }),
        ),
        ...incidentSideOfLink(actor, at, current, ends),
      ]);
    },
    (index) => index !== 1,
  );
  return findEvent(actor, eventId, tenantId, plan);
}
