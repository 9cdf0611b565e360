/**
 * Worker `webhook-deliver` (shared/workers.ts): reads the `webhook-deliveries` queue and makes one
 * attempt of each delivery (shared/domain/webhooks/delivery-message.ts). A delivery to try again is
 * hidden for its retry delay; a failed attempt returns after a backoff; after 12 receives SQS moves
 * it to the dead-letter queue.
 */
import type { SQSEvent } from 'aws-lambda';
import { backoffOn } from '../../shared/adapters/queue-retry.js';
import { deliverMessage } from '../../shared/domain/webhooks/delivery-message.js';
import { DELIVERIES_QUEUE } from '../../shared/domain/webhooks/dispatch.js';
import type { DeliverOptions } from '../../shared/domain/webhooks/delivery-attempt.js';
import { queueBatch, withHeartbeat } from '../../shared/worker-handler.js';

/**
 * The worker, on a clock of the caller's (tests walk the retry schedule on a fake one): the same
 * chain as the deployed handler's, so its lines name the worker and its metrics are the invocation's.
 */
export const deliverWorker = (options: DeliverOptions = {}) =>
  withHeartbeat('webhook-deliver', (event: SQSEvent) =>
    queueBatch(event, (record) => deliverMessage(record.body, options), {
      hide: backoffOn(DELIVERIES_QUEUE),
      parallel: true,
    }),
  );

export const handler = deliverWorker();
