/**
 * Notifications with acknowledgement links: what the tenant's people are told, on the bus, when an
 * incident is confirmed or escalated while nobody has acknowledged it.
 */
import { putAckToken, type Incident } from '../../db/incidents.js';
import { outboxPut } from '../../db/outbox.js';
import type { TransactItem } from '../../db/transact.js';
import type { EscalationLevel, TenantConfig } from '../tenant-config.js';
import { hashToken, issueAckToken } from './ack-token.js';
import { severityRank } from './lifecycle.js';

/** The bus source of every incident message (docs/events.md). */
export const INCIDENTS_SOURCE = 'gatehouse.incidents';

/**
 * A notification with an acknowledgement link, addressed to `roles`: on confirmation (the first
 * level of the tenant's escalation policy) and on each escalation while nobody has acknowledged,
 * for incidents at or above the tenant's `notifications.min_severity`.
 * The link's token goes out only in the notification (on the bus, to the tenant's webhooks and
 * rules); the table keeps its hash.
 */
export function notificationWrites(incident: Incident, config: TenantConfig, roles: EscalationLevel['notify_roles']): TransactItem[] {
  // Below the tenant's notification threshold nobody is told (the domain events still go out).
  if (severityRank(incident.severity) < severityRank(config.notifications.min_severity)) return [];
  const issued = issueAckToken(Date.now(), config.notifications.acknowledgement_link_ttl_minutes);
  const token = `ack_${incident.tenant_id.replace(/-/g, '')}${issued.token}`;
  return [
    putAckToken({ incident_id: incident.incident_id, tenant_id: incident.tenant_id, token_hash: hashToken(token), expires_at_iso: issued.expiresAt, addressed_to: [...roles] }),
    outboxPut({
      tenantId: incident.tenant_id,
      source: INCIDENTS_SOURCE,
      detailType: 'incident.notification',
      detail: {
        incident_id: incident.incident_id,
        title: incident.title,
        severity: incident.severity,
        escalation_level: incident.escalation_level,
        notify_roles: roles,
        email_recipients: config.notifications.email_recipients,
        acknowledge_path: `/api/v1/incidents/${incident.incident_id}/acknowledge?token=${token}`,
        link_expires_at: issued.expiresAt,
      },
    }),
  ];
}

/** Confirming: the SLA clock starts (the caller sets it) and the first level is told. */
export function confirmationWrites(incident: Incident, config: TenantConfig): TransactItem[] {
  return notificationWrites(incident, config, config.escalation_policy.levels[0]?.notify_roles ?? ['OPERATOR']);
}
