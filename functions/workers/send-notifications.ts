/**
 * Worker `send-notifications` (shared/workers.ts): an `incident.notification` on the bus is sent
 * to its roles' users, its level's integrations and the email recipients, each with an
 * acknowledgement link minted now (shared/domain/incidents/notification-delivery.ts), in the bus
 * entry's own tenant. A target that failed is thrown after all were tried, so the event is
 * retried (those that took it are not sent it again) and then kept in the dead-letter queue.
 */
import type { EventBridgeEvent } from 'aws-lambda';
import { notificationSender } from '../../shared/adapters/notification-sender.js';
import { deliverNotification, type DeliveryReport, type NotificationDetail } from '../../shared/domain/incidents/notification-delivery.js';
import { log } from '../../shared/log.js';

export const handler = async (event: EventBridgeEvent<string, NotificationDetail & { tenant_id?: string }>): Promise<DeliveryReport | null> => {
  const detail = event.detail;
  if (!detail?.tenant_id || !detail.message_id) {
    log.warn('an incident.notification without a tenant or a message id: not sent', { detail_type: event['detail-type'] });
    return null;
  }
  return deliverNotification({ ...detail, tenant_id: detail.tenant_id }, notificationSender());
};
