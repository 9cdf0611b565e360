/**
 * Worker `webhook-dispatch` (shared/workers.ts): reads the `webhook-dispatch` queue and makes one
 * delivery per matching subscription of each message (shared/domain/webhooks/dispatch-batch.ts). A
 * message that fails is reported alone and comes back after a backoff (2, 4, 8, 16 s); after 5
 * receives it is in the dead-letter queue.
 */
import { backoffOn } from '../../shared/adapters/queue-retry.js';
import { dispatchToWebhooks } from '../../shared/domain/webhooks/dispatch-batch.js';
import { queueBatchWorker } from '../../shared/worker-handler.js';

export const handler = queueBatchWorker(
  'webhook-dispatch',
  { hide: backoffOn('webhook-dispatch'), parallel: true },
  dispatchToWebhooks,
);
