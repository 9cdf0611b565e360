/** Reading events, and an operator marking one processed. */
import { auditEntry, auditPut } from '../../db/audit.js';
import { getEvent, listEvents as listStoredEvents, markProcessedUpdate, type StoredEvent } from '../../db/events.js';
import { getIncident } from '../../db/incidents.js';
import type { PageRequest } from '../../db/query.js';
import { transactWrite } from '../../db/transact.js';
import { invalid, NotFoundError } from '../../errors.js';
import { now, timeIdBound } from '../../ids.js';
import type { Actor } from '../actor.js';
import { ENVIRONMENT_NOT_FOUND } from '../environments.js';
import { getEnvironment } from '../../db/environments.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { eventListQuery, eventProcessedUpdate } from '../../schemas/events.js';
import type { TenantId } from '../../vocabulary/tenant.js';

export const EVENT_NOT_FOUND = 'Event not found';
export const INCIDENT_NOT_FOUND = 'Incident not found';

export type EventFilter = Omit<InputOf<typeof eventListQuery>, 'limit' | 'offset'>;


/**
 * Newest first. Dates bound the event ids (UUIDv7, made when the event was received); both
 * bounds are inclusive.
 */
export async function listEvents(tenantId: TenantId, filter: EventFilter, page: PageRequest): Promise<StoredEvent[]> {
  const from = filter.start_date ? Date.parse(filter.start_date) : undefined;
  const to = filter.end_date ? Date.parse(filter.end_date) : undefined;
  if (from !== undefined && to !== undefined && from > to) {
    throw invalid(['query', 'end_date'], 'must not be before start_date', 'value_error');
  }
  const events = await listStoredEvents(
    tenantId,
    {
      environmentId: filter.environment_id,
      type: filter.type,
      processed: filter.processed,
      fromId: from !== undefined ? timeIdBound(from, 'low') : undefined,
      toId: to !== undefined ? timeIdBound(to, 'high') : undefined,
    },
    page,
  );
  // A filter naming an environment that is not the tenant's is answered as the unknown it is;
  // a page with events of it shows it exists without a read.
  if (events.length === 0 && filter.environment_id && !(await getEnvironment(tenantId, filter.environment_id))) {
    throw new NotFoundError(ENVIRONMENT_NOT_FOUND);
  }
  return events;
}

export async function findEvent(actor: Actor, eventId: string, tenantId: TenantId): Promise<StoredEvent> {
  const event = await getEvent(tenantId, eventId);
  if (!event) throw new NotFoundError(EVENT_NOT_FOUND);
  const { content_hash: _h, ...rest } = event;
  return rest;
}

export type ProcessedUpdate = InputOf<typeof eventProcessedUpdate>;

/** The incident must be one of the tenant's (any other is answered as unknown). */
async function assertIncident(tenantId: TenantId, incidentId: string): Promise<void> {
  if (!(await getIncident(tenantId, incidentId))) throw new NotFoundError(INCIDENT_NOT_FOUND);
}

export async function markProcessed(actor: Actor, eventId: string, tenantId: TenantId, update: ProcessedUpdate): Promise<StoredEvent> {
  const current = await getEvent(tenantId, eventId);
  if (!current) throw new NotFoundError(EVENT_NOT_FOUND);
  if (update.incident_id) await assertIncident(tenantId, update.incident_id);
  const at = now();
  const changes = Object.fromEntries(
    Object.entries({ processed: update.processed, threat_score: update.threat_score, incident_id: update.incident_id })
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, { from: (current as unknown as Record<string, unknown>)[k] ?? null, to: v }]),
  );
  await transactWrite([
    markProcessedUpdate(tenantId, eventId, update, at, Boolean(current.threat_factors)),
    auditPut(auditEntry(actor, { tenantId, action: 'event.processed', resourceType: 'event', resourceId: eventId, changes })),
  ]);
  return findEvent(actor, eventId, tenantId);
}
