/**
 * Notifications: what the tenant's people are told, on the bus, when an incident is confirmed or
 * escalated while nobody has acknowledged it (sent, with a link, by the send-notifications worker).
 */
import type { Incident } from '../../db/incidents.js';
import { outboxPut } from '../../db/outbox.js';
import type { TransactItem } from '../../db/transact.js';
import type { EscalationLevel, TenantConfig } from '../accounts/index.js';
import { severityRank } from './lifecycle.js';

/** The bus source of every incident message (docs/events.md). */
export const INCIDENTS_SOURCE = 'gatehouse.incidents';

/** Why people are told: the incident was confirmed, its level's time ran out, or someone escalated it. */
export type NotificationReason = 'confirmed' | 'not_acknowledged' | 'escalated_manually';

/**
 * A notification to the level `told` of the tenant's escalation policy (its roles and its
 * integrations) and to the tenant's email recipients: on confirmation (`levels[0]`) and on each
 * escalation while nobody has acknowledged, for incidents at or above the tenant's
 * `notifications.min_severity`. It carries the incident, never a link: each acknowledgement link
 * is minted when the notification is sent to its people and integrations
 * (shared/domain/incidents/notification-delivery.ts), so its token is never in the table, the
 * outbox, the bus or its archive.
 */
export function notificationWrites(
  incident: Incident,
  config: TenantConfig,
  told: EscalationLevel,
  why: NotificationReason,
): TransactItem[] {
  // Below the tenant's notification threshold nobody is told (the domain events still go out).
  if (severityRank(incident.severity) < severityRank(config.notifications.min_severity)) return [];
  return [
    outboxPut({
      tenantId: incident.tenant_id,
      source: INCIDENTS_SOURCE,
      detailType: 'incident.notification',
      detail: {
        incident_id: incident.incident_id,
        title: incident.title,
        severity: incident.severity,
        escalation_level: incident.escalation_level,
        reason: why,
        notify_roles: told.notify_roles,
        integration_ids: told.integration_ids ?? [],
        email_recipients: config.notifications.email_recipients,
        link_ttl_minutes: config.notifications.acknowledgement_link_ttl_minutes,
      },
    }),
  ];
}

/** Who is told on confirmation when a policy has no level (the schema wants one): the operators. */
const FALLBACK_LEVEL: EscalationLevel = { after_minutes: 15, notify_roles: ['OPERATOR'], integration_ids: [] };

/** Confirming: the SLA clock starts (the caller sets it) and the first level, `levels[0]`, is told. */
export function confirmationWrites(incident: Incident, config: TenantConfig): TransactItem[] {
  return notificationWrites(incident, config, config.escalation_policy.levels[0] ?? FALLBACK_LEVEL, 'confirmed');
}
