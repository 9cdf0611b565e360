/**
 * One message of the `notifications` queue (worker `send-notifications`): an `incident.notification`
 * of the bus, sent in the bus entry's own tenant to its roles' users, its level's integrations and
 * the email recipients, each with an acknowledgement link minted now (notification-delivery.ts). A
 * target that failed is thrown after all were tried, so the message is tried again (those that took
 * it are not sent it again). One without a tenant or a message id is dropped.
 */
import type { NotificationSender } from '../../adapters/notification-sender.js';
import { log } from '../../log.js';
import { asTenant } from '../../tenant-scope.js';
import { deliverNotification, type NotificationDetail } from './notification-delivery.js';

interface NotificationEnvelope {
  'detail-type'?: string;
  detail?: Partial<NotificationDetail> & { tenant_id?: string };
}

export async function sendNotificationMessage(body: string, sender: NotificationSender | null): Promise<void> {
  const bus = JSON.parse(body) as NotificationEnvelope;
  const detail = bus.detail;
  if (!detail?.tenant_id || !detail.message_id) {
    log.warn('an incident.notification without a tenant or a message id: not sent', {
      detail_type: bus['detail-type'],
    });
    return;
  }
  // As the bus entry's tenant (docs/architecture.md, 27): its credentials reach its own data only.
  const tenantId = detail.tenant_id;
  await asTenant(tenantId, () =>
    deliverNotification({ ...(detail as NotificationDetail), tenant_id: tenantId }, sender),
  );
}
