/**
 * Worker `webhook-deliver` (shared/workers.ts): reads the `webhook-deliveries` queue and makes one
 * attempt of each delivery (shared/domain/webhook-deliver.ts). A delivery to try again later is
 * hidden on the queue for its retry delay (ChangeMessageVisibility) and reported as a batch item
 * failure, so the queue gives it back then: no function waits. A message whose attempt threw
 * returns after the visibility timeout; after 12 receives SQS moves it to the dead-letter queue.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { queues } from '../../shared/adapters/queue.js';
import { attemptDelivery, type DeliverOptions } from '../../shared/domain/webhook-deliver.js';
import { DELIVERIES_QUEUE, type DeliveryJob } from '../../shared/domain/webhook-dispatch.js';
import { log } from '../../shared/log.js';

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
          log.error('a webhook delivery attempt failed; it returns after the visibility timeout', { sqs_message_id: record.messageId, err });
          failures.push({ itemIdentifier: record.messageId });
        }
      }),
    );
    return { batchItemFailures: failures };
  };
}

export const handler = deliverHandler();
