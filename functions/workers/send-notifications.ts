/**
 * Worker `send-notifications` (shared/workers.ts): reads the `notifications` queue, which a rule on
 * the service's bus feeds with every `incident.notification`, and sends each message
 * (shared/domain/incidents/notification-message.ts). A message that failed is reported alone and
 * comes back after a backoff of 2, 4, 8, 16 s; after five receives it waits in the dead-letter queue.
 */
import { backoffOn } from '../../shared/adapters/queue-retry.js';
import { notificationSender } from '../../shared/adapters/notification-sender.js';
import { sendNotificationMessage } from '../../shared/domain/incidents/notification-message.js';
import { queueWorker } from '../../shared/worker-handler.js';

export const handler = queueWorker(
  'send-notifications',
  { hide: backoffOn('notifications'), parallel: true },
  (record) => sendNotificationMessage(record.body, notificationSender()),
);
