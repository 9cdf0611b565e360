/**
 * Incidents: opening one, reading, responding, escalating, acknowledging by link (the links are
 * issued by notifications.ts; the feed and replay are read by history.ts). Every change is one transaction: the incident (versioned), its audit entry, a feed
 * entry and its announcement on the event bus (outbox), so none exists without the others.
 */
import { auditEntry, auditPut } from '../../db/audit/index.js';
import {
  dropNewIncidentRows,
  getIncident,
  putFeedEntry,
  putNewIncident,
  updateIncident,
  type HistoryEntry,
  type Incident,
  type StoredIncident,
} from '../../db/incidents.js';
import { outboxPut } from '../../db/outbox.js';
import { getTenantConfig } from '../../db/tenants.js';
import { ConditionFailed, retryOnConcurrentChange, transactWrite, type TransactItem } from '../../db/transact.js';
import { getUser } from '../../db/users.js';
import { ConflictError, invalid, NotFoundError } from '../../errors.js';
import { newTimeId, now } from '../../ids.js';
import { metrics } from '../../metrics.js';
import type { Actor } from '../actor.js';
import { ENVIRONMENT_NOT_FOUND, ZONE_NOT_FOUND, zonesAt } from '../sites/index.js';
import { USER_NOT_FOUND, defaultTenantConfig, type TenantConfig } from '../accounts/index.js';
import { getEnvironment } from '../../db/environments.js';
import { listPage, type ListQuery } from './list.js';
import { getSiteEntity, SITE_KINDS } from '../../db/site-entities.js';
import { raiseLevel, settleSlaClock, slaTimerWrites, startSlaClock } from './escalation.js';
import { confirmationWrites, INCIDENTS_SOURCE, notificationWrites } from './notifications.js';
import { ForbiddenTransitionError, timeFigures, transition, transitionsOf, type Transition } from './lifecycle.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { incidentCreate, incidentRespond } from '../../schemas/incidents.js';
import { type TenantId } from '../../vocabulary/tenant.js';
import { actorName } from '../../vocabulary/actor.js';

export const INCIDENT_NOT_FOUND = 'Incident not found';

export interface IncidentView extends Omit<Incident, 'history' | 'location_zone_ids'> {
  transitions: Transition[];
  time_to_acknowledge_seconds: number | null;
  time_to_resolve_seconds: number | null;
}

export { transitionsOf };

export function viewOf({ history, ...incident }: Incident | StoredIncident): IncidentView {
  const { version: _v, location_zone_ids: _z, ...rest } = incident as StoredIncident;
  const transitions = transitionsOf(history);
  return { ...rest, transitions, ...timeFigures(incident.created_at, transitions) };
}

export const byOf = actorName;

export async function configOf(tenantId: string): Promise<TenantConfig> {
  return (await getTenantConfig(tenantId)) ?? defaultTenantConfig(tenantId, now());
}

/** The ids of both lists, each once, in first-seen order. */
export const unionOf = (...lists: readonly (readonly string[])[]): string[] => [...new Set(lists.flat())];

/** The writes that go with every change: audit, feed, bus. */
export function companions(
  actor: Actor,
  incident: Incident,
  action: string,
  changes: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): TransactItem[] {
  const view = viewOf(incident);
  return [
    auditPut(
      auditEntry(actor, {
        tenantId: incident.tenant_id,
        action,
        resourceType: 'incident',
        resourceId: incident.incident_id,
        changes,
      }),
    ),
    putFeedEntry(incident.tenant_id, {
      entry_id: newTimeId(),
      at: incident.updated_at,
      kind: action,
      incident_id: incident.incident_id,
      title: incident.title,
      severity: incident.severity,
      status: incident.status,
      by: byOf(actor),
    }),
    outboxPut({
      tenantId: incident.tenant_id,
      source: INCIDENTS_SOURCE,
      detailType: action,
      detail: { ...view, ...extra },
    }),
  ];
}

export type IncidentCreate = InputOf<typeof incidentCreate>;

export async function openIncident(
  actor: Actor,
  tenantId: TenantId,
  input: IncidentCreate,
  source: Incident['source'] = 'manual',
  extra: Partial<Incident> = {},
  /** Writes that must happen with the opening or not at all (linking the event that opened it). */
  alongside: (incidentId: string) => TransactItem[] = () => [],
): Promise<IncidentView> {
  if (input.environment_id && !(await getEnvironment(tenantId, input.environment_id)))
    throw new NotFoundError(ENVIRONMENT_NOT_FOUND);
  // The zones of its location, unless the caller knows them (an event's geofence match).
  const locationZoneIds =
    extra.location_zone_ids ??
    (input.environment_id && input.location ? await zonesAt(tenantId, input.environment_id, input.location) : []);
  const config = await configOf(tenantId);
  const at = now();
  const status = input.status ?? 'confirmed';
  const severity = input.severity ?? 'medium';
  const history: HistoryEntry[] = [{ at, kind: 'status', by: byOf(actor), detail: { from: null, to: 'draft' } }];
  if (status === 'confirmed')
    history.push({ at, kind: 'status', by: byOf(actor), detail: { from: 'draft', to: 'confirmed' } });
  const incident: Incident = {
    incident_id: newTimeId(),
    tenant_id: tenantId,
    title: input.title.trim(),
    description: input.description ?? null,
    type: input.type ?? null,
    severity,
    status,
    resolution: null,
    resolution_notes: null,
    source,
    environment_id: input.environment_id ?? null,
    location: input.location ?? null,
    location_text: input.location_text ?? null,
    occurred_at: input.occurred_at ?? null,
    assignee_id: null,
    escalation_level: 0,
    ...(status === 'confirmed'
      ? startSlaClock(config, severity, at)
      : { sla_due_at: null, sla_breached_at: null, next_escalation_at: null }),
    summary: null,
    event_ids: [],
    zone_ids: [],
    history,
    created_at: at,
    updated_at: at,
    ...extra,
    location_zone_ids: locationZoneIds,
  };
  incident.zone_ids = unionOf(locationZoneIds, extra.zone_ids ?? []);
  // Events listed at opening (the one that opened it, or those an operator named) are in its timeline.
  incident.history.push(
    ...incident.event_ids.map((eventId) => ({ at, kind: 'linked', by: byOf(actor), detail: { event_id: eventId } })),
  );
  const confirmation = status === 'confirmed' ? confirmationWrites(incident, config) : [];
  try {
    await transactWrite([
      ...putNewIncident(incident),
      ...companions(actor, incident, 'incident.created', { title: incident.title, severity, status, source }),
      ...confirmation,
      ...slaTimerWrites(null, incident),
      ...alongside(incident.incident_id),
    ]);
  } catch (err) {
    // Its list rows were put first. Refused on another item's condition, it is not there: nor
    // are they. (Refused because the id exists, or failed not knowing, they may be a real incident's.)
    if (err instanceof ConditionFailed && !err.indexes.includes(0))
      await dropNewIncidentRows(incident).catch(() => undefined);
    throw err;
  }
  metrics.incidentOpened();
  return viewOf(incident);
}

/** The caller's incident, with its history; another tenant's is 404 like an unknown one. */
export async function findStored(tenantId: TenantId, incidentId: string): Promise<StoredIncident> {
  const incident = await getIncident(tenantId, incidentId);
  if (!incident) throw new NotFoundError(INCIDENT_NOT_FOUND);
  return incident;
}

export async function findIncident(tenantId: TenantId, incidentId: string): Promise<IncidentView> {
  return viewOf(await findStored(tenantId, incidentId));
}

export type { ListQuery };

export async function listIncidents(
  tenantId: TenantId,
  q: ListQuery,
): Promise<{ items: IncidentView[]; total: number; limit: number; offset: number }> {
  const { items, total } = await listPage(tenantId, q);
  // A place named that is not the tenant's is answered as the unknown it is; a match shows it exists.
  if (total === 0) {
    if (q.environment_id && !(await getEnvironment(tenantId, q.environment_id)))
      throw new NotFoundError(ENVIRONMENT_NOT_FOUND);
    if (q.zone_id && !(await getSiteEntity(SITE_KINDS.zone, tenantId, q.zone_id)))
      throw new NotFoundError(ZONE_NOT_FOUND);
  }
  return { items: items.map(viewOf), total, limit: q.limit, offset: q.offset };
}

/** Read, change, write with the version condition; a forbidden transition is 409 and writes nothing. */
export async function change(
  actor: Actor,
  tenantId: TenantId,
  incidentId: string,
  apply: (
    current: StoredIncident,
    at: string,
  ) => {
    next: Incident;
    fields: (keyof Incident)[];
    action: string;
    changes: Record<string, unknown>;
    extra?: TransactItem[];
  },
  load: () => Promise<StoredIncident> = () => findStored(tenantId, incidentId),
): Promise<IncidentView> {
  return retryOnConcurrentChange(async () => {
    const current = await load();
    const at = now();
    let result;
    try {
      result = apply(current, at);
    } catch (err) {
      if (err instanceof ForbiddenTransitionError) throw new ConflictError(err.message);
      throw err;
    }
    const next = settleSlaClock({ ...result.next, updated_at: at });
    await transactWrite([
      // The SLA fields are always written: any change may stop or move the clock.
      ...updateIncident(current, next, [
        ...result.fields,
        'history',
        'sla_due_at',
        'sla_breached_at',
        'next_escalation_at',
      ]),
      ...companions(actor, next, result.action, result.changes),
      ...(result.extra ?? []),
      ...slaTimerWrites(current, next),
    ]);
    countMoves(current, next);
    return viewOf(next);
  });
}

/** The metrics of a change that moved the incident: acknowledged, SLA breached, escalated (by hand or by the SLA). */
function countMoves(current: Incident, next: Incident): void {
  if (next.status === 'acknowledged' && current.status !== 'acknowledged') metrics.incidentAcknowledged();
  if (next.sla_breached_at && !current.sla_breached_at) metrics.incidentSlaBreached();
  if (next.escalation_level > current.escalation_level) metrics.escalation();
}

export type RespondInput = InputOf<typeof incidentRespond>;

export async function respond(
  actor: Actor,
  tenantId: TenantId,
  incidentId: string,
  input: RespondInput,
): Promise<IncidentView> {
  if (input.assignee_id) {
    const assignee = await getUser(tenantId, input.assignee_id);
    // Another tenant's user is answered as the unknown user it is here.
    if (!assignee) throw new NotFoundError(USER_NOT_FOUND);
    if (!assignee.active) throw invalid(['body', 'assignee_id'], 'must be an active user', 'inactive');
  }
  const config = input.status === 'confirmed' ? await configOf(tenantId) : null;
  return change(actor, tenantId, incidentId, (current, at) => {
    const by = byOf(actor);
    const history = [...current.history];
    const next: Incident = { ...current };
    const fields: (keyof Incident)[] = [];
    const changes: Record<string, unknown> = {};
    let action = 'incident.updated';
    const extra: TransactItem[] = [];
    if (input.status && input.status !== current.status) {
      const t = transition(current.status, input.status, at, by, input.note);
      if (t.to === 'resolved' && !(input.resolution ?? current.resolution)) {
        throw invalid(['body', 'resolution'], 'a resolution is needed to resolve an incident', 'missing');
      }
      history.push({ at, kind: 'status', by, detail: { from: t.from, to: t.to, ...(t.note ? { note: t.note } : {}) } });
      next.status = t.to;
      fields.push('status');
      changes.status = { from: current.status, to: t.to };
      action = `incident.${t.to}`;
      if (t.to === 'confirmed' && config) {
        Object.assign(next, startSlaClock(config, current.severity, at));
        extra.push(...confirmationWrites(next, config));
      }
    }
    if (input.assignee_id !== undefined && input.assignee_id !== current.assignee_id) {
      history.push({ at, kind: 'assigned', by, detail: { from: current.assignee_id, to: input.assignee_id } });
      next.assignee_id = input.assignee_id;
      fields.push('assignee_id');
      changes.assignee_id = { from: current.assignee_id, to: input.assignee_id };
    }
    if (input.resolution !== undefined || input.resolution_notes !== undefined) {
      next.resolution = input.resolution ?? current.resolution;
      next.resolution_notes = input.resolution_notes ?? current.resolution_notes;
      history.push({
        at,
        kind: 'resolution',
        by,
        detail: { resolution: next.resolution, notes: next.resolution_notes },
      });
      fields.push('resolution', 'resolution_notes');
      changes.resolution = { from: current.resolution, to: next.resolution };
    }
    if (input.note && !input.status) history.push({ at, kind: 'note', by, detail: { text: input.note } });
    next.history = history;
    return { next, fields, action, changes, extra };
  });
}

/**
 * One level up the tenant's escalation policy, notifying that level (with a new acknowledgement
 * link while nobody has acknowledged); past the top it is 409. The SLA scheduler escalates through
 * the same steps (escalation.ts).
 */
export async function escalate(
  actor: Actor,
  tenantId: TenantId,
  incidentId: string,
  reason: string | undefined,
): Promise<IncidentView> {
  const config = await configOf(tenantId);
  const levels = config.escalation_policy.levels;
  return change(actor, tenantId, incidentId, (current, at) => {
    if (['draft', 'resolved', 'closed', 'cancelled'].includes(current.status)) {
      throw new ConflictError(`A ${current.status} incident is not escalated`);
    }
    const raised = raiseLevel(current, levels, at, byOf(actor), reason);
    if (!raised)
      throw new ConflictError(
        `The incident is at the highest escalation level (${levels.length}) of the tenant's policy`,
      );
    return {
      next: raised.next,
      fields: ['escalation_level'],
      action: 'incident.escalated',
      changes: {
        escalation_level: { from: current.escalation_level, to: raised.level },
        notify_roles: raised.notifyRoles,
        reason,
      },
      extra:
        current.status === 'confirmed'
          ? notificationWrites(raised.next, config, raised.told, 'escalated_manually')
          : [],
    };
  });
}
