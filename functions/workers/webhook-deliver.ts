/**
 * Worker `webhook-deliver` (shared/workers.ts): reads the `webhook-deliveries` queue and makes one
 * attempt of each delivery (shared/domain/webhooks/delivery-attempt.ts). A delivery to try again later is
 * hidden on the queue for its retry delay (ChangeMessageVisibility) and reported as a batch item
 * failure, so the queue gives it back then: no function waits. A message whose attempt threw (our
 * own fault, not the receiver's) returns after a backoff; after 12 receives SQS moves it to the
 * dead-letter queue.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { queues } from '../../shared/adapters/queue.js';
import { retryLater } from '../../shared/adapters/queue-retry.js';
import { attemptDelivery, type DeliverOptions } from '../../shared/domain/webhooks/delivery-attempt.js';
import { DELIVERIES_QUEUE, type DeliveryJob } from '../../shared/domain/webhooks/dispatch.js';
import { log } from '../../shared/log.js';
import { withHeartbeat } from '../../shared/worker-handler.js';

/** The handler, on a clock of the caller's (tests walk the retry schedule on a fake one). */
export function deliverHandler(options: DeliverOptions = {}) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    await Promise.all(
      event.Records.map(async (record) => {
        try {
          const job = JSON.parse(record.body) as DeliveryJob;
          const outcome = await attemptDelivery(job, options);
          if (outcome.kind === 'retry') {
            await queues().changeVisibility(DELIVERIES_QUEUE, record.receiptHandle, outcome.delaySeconds);
            failures.push({ itemIdentifier: record.messageId });
          }
        } catch (err) {
          // Not the receiver's answer (that is recorded): our own fault, such as the table throttling.
          log.error('a webhook delivery attempt could not be made; it is tried again after a backoff', { sqs_message_id: record.messageId, err });
          await retryLater(DELIVERIES_QUEUE, record, failures);
        }
      }),
    );
    return { batchItemFailures: failures };
  };
}

export const handler = withHeartbeat('webhook-deliver', deliverHandler());
