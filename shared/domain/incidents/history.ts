/**
 * Reading an incident's past: the tenant's activity feed, an incident's whole timeline, and the
 * incident as it stood at a moment (its history folded up to then).
 */
import { getIncidentWithTimeline, listFeed, type FeedEntry, type HistoryEntry } from '../../db/incidents.js';
import { NotFoundError } from '../../errors.js';
import { now } from '../../ids.js';
import { INCIDENT_NOT_FOUND } from './incidents.js';
import type { IncidentStatus } from './lifecycle.js';
import type { TenantId } from '../../vocabulary/tenant.js';

export async function feed(tenantId: TenantId, page: { limit: number; offset: number }): Promise<FeedEntry[]> {
  return listFeed(tenantId, page);
}

export async function replay(
  tenantId: TenantId,
  incidentId: string,
): Promise<{ incident_id: string; timeline: HistoryEntry[] }> {
  return { incident_id: incidentId, timeline: (await withTimeline(tenantId, incidentId)).timeline };
}

/** The incident and its whole timeline (items of their own); another tenant's is 404 like an unknown one. */
async function withTimeline(tenantId: TenantId, incidentId: string) {
  const found = await getIncidentWithTimeline(tenantId, incidentId);
  if (!found) throw new NotFoundError(INCIDENT_NOT_FOUND);
  return found;
}

/** The incident as it stood at `at`: its history folded up to that moment. */
export async function snapshot(tenantId: TenantId, incidentId: string, at: string = now()) {
  const { incident, timeline } = await withTimeline(tenantId, incidentId);
  const moment = Date.parse(at);
  if (moment < Date.parse(incident.created_at)) throw new NotFoundError('The incident did not exist yet at that time');
  let status: IncidentStatus = 'draft';
  let escalationLevel = 0;
  let assignee: string | null = null;
  const notes: Record<string, unknown>[] = [];
  for (const h of timeline) {
    if (Date.parse(h.at) > moment) break;
    if (h.kind === 'status') status = h.detail.to as IncidentStatus;
    if (h.kind === 'escalated') escalationLevel = Number(h.detail.level);
    if (h.kind === 'assigned') assignee = (h.detail.to as string | null) ?? null;
    if (h.kind === 'note') notes.push({ at: h.at, by: h.by, text: h.detail.text });
  }
  return {
    incident_id: incidentId,
    at: new Date(moment).toISOString(),
    status,
    escalation_level: escalationLevel,
    assignee_id: assignee,
    notes,
  };
}
