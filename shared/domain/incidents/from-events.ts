/**
 * The pipeline's way in: an event whose threat score reaches the tenant's threshold opens an
 * incident, linked both ways (the incident lists the event, the event names the incident) in one
 * transaction, which also checks the event is not linked yet, so a retried ingest opens no second
 * incident for the same event.
 */
import { setEventIncident, type StoredEvent } from '../../db/events.js';
import { ConditionFailed } from '../../db/transact.js';
import type { Actor } from '../actor.js';
import type { IncidentSeverity } from './lifecycle.js';
import { INCIDENT_SEVERITIES, severityRank } from '../../vocabulary/incidents.js';
import { openIncident } from './incidents.js';
import { systemTenant, type TenantId } from '../../vocabulary/tenant.js';

/** A score's severity: the threshold opens medium ones; the top of the scale critical. */
export function severityOfScore(score: number): IncidentSeverity {
  if (score >= 0.9) return 'critical';
  if (score >= 0.8) return 'high';
  return 'medium';
}

/**
 * The incident's severity: the score's, but never below what the event's reporter said (a sensor
 * or a person who marked it critical opens a critical incident, whatever the score).
 */
export function severityOfEvent(score: number, reported: string | null): IncidentSeverity {
  const scored = severityOfScore(score);
  if (!isSeverity(reported)) return scored;
  return severityRank(reported) > severityRank(scored) ? reported : scored;
}

const isSeverity = (s: string | null): s is IncidentSeverity =>
  (INCIDENT_SEVERITIES as readonly (string | null)[]).includes(s);

/**
 * Opens an incident for each event at or above its tenant's threshold (`thresholdOf`, from the
 * configuration ingest read) and not linked yet; returns the events as they are now.
 */
export async function openIncidentsForEvents(
  actor: Actor,
  events: StoredEvent[],
  thresholdOf: (tenantId: TenantId) => number,
): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  for (const event of events) {
    if (event.incident_id || event.threat_score === null || event.threat_score < thresholdOf(event.tenant_id)) {
      out.push(event);
      continue;
    }
    try {
      const incident = await openIncident(
        actor,
        // System work: the event was stored in its tenant by an ingest whose tenant was decided.
        systemTenant(event.tenant_id),
        {
          title: `${event.type.replace(/[._]/g, ' ')}${event.matched_zone_ids.length > 0 ? ' in a watched zone' : ''}`,
          description: event.description ?? undefined,
          type: event.type,
          severity: severityOfEvent(event.threat_score, event.severity),
          environment_id: event.environment_id ?? undefined,
          location: event.location ?? undefined,
          occurred_at: event.occurred_at,
        },
        'event',
        // The event's geofence match is where the incident is.
        { event_ids: [event.event_id], zone_ids: event.matched_zone_ids, location_zone_ids: event.matched_zone_ids },
        // Only an event that names no incident yet: a retried ingest opens no second one.
        (incidentId) => [setEventIncident(event.tenant_id, event.event_id, null, incidentId)],
      );
      out.push({ ...event, incident_id: incident.incident_id });
    } catch (err) {
      // Linked by a concurrent retry of the same ingest: that one opened the incident.
      if (!(err instanceof ConditionFailed)) throw err;
      out.push(event);
    }
  }
  return out;
}
