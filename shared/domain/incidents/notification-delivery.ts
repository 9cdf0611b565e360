/**
 * Sending an `incident.notification` to its people, with an acknowledgement link minted at that
 * moment: the token exists only in what the sender delivers; the table keeps its hash (and the
 * bus, the outbox and the logs never see it). Idempotent per notification: a delivery marker
 * says it was sent, so a retried event sends nothing twice; a delivery that failed before its
 * marker said "sent" mints a new link when tried again (the unsent one is never shown).
 */
import type { NotificationSender } from '../../adapters/notification-sender.js';
import { getNotificationDelivery, markNotificationSent, putAckToken, putNotificationDelivery } from '../../db/incidents.js';
import { transactWrite } from '../../db/transact.js';
import { now } from '../../ids.js';
import { systemTenant, type TenantId } from '../../vocabulary/tenant.js';
import { hashToken, issueAckToken, linkToken } from './ack-token.js';

/** The bus detail of `incident.notification` (docs/events.md). */
export interface NotificationDetail {
  /** The outbox message's id (added when published): one per notification, the same on a retry. */
  message_id: string;
  incident_id: string;
  title: string;
  severity: string;
  escalation_level: number;
  notify_roles: readonly string[];
  email_recipients: readonly string[];
  link_ttl_minutes: number;
}

export type DeliveryOutcome = 'sent' | 'already_sent' | 'no_sender';

/**
 * Delivers a notification read from the bus. The tenant is the entry's own `tenant_id` (the
 * outbox sets it from the change that announced it): system work, no request's caller.
 */
export async function deliverNotification(detail: NotificationDetail & { tenant_id: string }, sender: NotificationSender | null): Promise<DeliveryOutcome> {
  if (!sender) return 'no_sender';
  const tenantId: TenantId = systemTenant(detail.tenant_id);
  const delivery = await getNotificationDelivery(tenantId, detail.incident_id, detail.message_id);
  if (delivery?.status === 'sent') return 'already_sent';
  const issued = issueAckToken(Date.now(), detail.link_ttl_minutes);
  const token = linkToken(tenantId, issued.token);
  await transactWrite([
    putAckToken({
      incident_id: detail.incident_id,
      tenant_id: tenantId,
      token_hash: hashToken(token),
      expires_at_iso: issued.expiresAt,
      addressed_to: [...detail.notify_roles],
    }),
    putNotificationDelivery(tenantId, detail.incident_id, detail.message_id),
  ]);
  await sender.send({
    notification_id: detail.message_id,
    tenant_id: tenantId,
    incident_id: detail.incident_id,
    title: detail.title,
    severity: detail.severity,
    escalation_level: detail.escalation_level,
    to: { roles: detail.notify_roles, emails: detail.email_recipients },
    acknowledge_path: `/api/v1/incidents/${detail.incident_id}/acknowledge?token=${token}`,
    link_expires_at: issued.expiresAt,
    sent_at: now(),
  });
  await markNotificationSent(tenantId, detail.incident_id, detail.message_id);
  return 'sent';
}
