/**
 * The pipeline's way in: an event whose threat score reaches the tenant's threshold opens an
 * incident, linked both ways (the incident lists the event, the event names the incident) in one
 * transaction, which also checks the event is not linked yet, so a retried ingest opens no second
 * incident for the same event.
 */
import { linkEventToIncident, type StoredEvent } from '../../db/events.js';
import { ConditionFailed } from '../../db/transact.js';
import type { Actor } from '../actor.js';
import type { IncidentSeverity } from './lifecycle.js';
import { openIncident } from './incidents.js';
import { systemTenant, type TenantId } from '../../vocabulary/tenant.js';

/** A score's severity: the threshold opens medium ones; the top of the scale critical. */
export function severityOfScore(score: number): IncidentSeverity {
  if (score >= 0.9) return 'critical';
  if (score >= 0.8) return 'high';
  return 'medium';
}

/**
 * Opens an incident for each event at or above its tenant's threshold (`thresholdOf`, from the
 * configuration ingest read) and not linked yet; returns the events as they are now.
 */
export async function openIncidentsForEvents(actor: Actor, events: StoredEvent[], thresholdOf: (tenantId: TenantId) => number): Promise<StoredEvent[]> {
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
          severity: severityOfScore(event.threat_score),
          environment_id: event.environment_id ?? undefined,
          location: event.location ?? undefined,
          occurred_at: event.occurred_at,
        },
        'event',
        { event_ids: [event.event_id] },
        (incidentId) => [linkEventToIncident(event.tenant_id, event.event_id, incidentId)],
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

