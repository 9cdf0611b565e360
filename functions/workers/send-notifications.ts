/**
 * Worker `send-notifications` (shared/workers.ts): reads the `notifications` queue, which a rule on
 * the service's bus feeds with every `incident.notification`, and sends each to its roles' users,
 * its level's integrations and the email recipients, each with an acknowledgement link minted now
 * (shared/domain/incidents/notification-delivery.ts), in the bus entry's own tenant. A target that
 * failed is thrown after all were tried, so the message is reported alone and comes back after a
 * backoff of 2, 4, 8, 16 s (those that took it are not sent it again); after five receives it
 * waits in the dead-letter queue (alarmed).
 */
import type { EventBridgeEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { notificationSender } from '../../shared/adapters/notification-sender.js';
import { retryLater } from '../../shared/adapters/queue-retry.js';
import { deliverNotification, type NotificationDetail } from '../../shared/domain/incidents/notification-delivery.js';
import { log } from '../../shared/log.js';
import { withHeartbeat } from '../../shared/worker-handler.js';

type NotificationEvent = EventBridgeEvent<string, Partial<NotificationDetail> & { tenant_id?: string }>;

export const handler = withHeartbeat('send-notifications', async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      try {
        const bus = JSON.parse(record.body) as NotificationEvent;
        const detail = bus.detail;
        if (!detail?.tenant_id || !detail.message_id) {
          log.warn('an incident.notification without a tenant or a message id: not sent', { detail_type: bus['detail-type'] });
          return;
        }
        await deliverNotification({ ...(detail as NotificationDetail), tenant_id: detail.tenant_id }, notificationSender());
      } catch (err) {
        log.error('sending a notification failed; it is tried again after a backoff', { sqs_message_id: record.messageId, err });
        await retryLater('notifications', record, failures);
      }
    }),
  );
  return { batchItemFailures: failures };
});
