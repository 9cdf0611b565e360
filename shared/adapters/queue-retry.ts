/**
 * A queue worker's failed message: reported as a batch item failure, and hidden for a backoff
 * that doubles with its receives (shared/adapters/queue.ts `backoffSeconds`), so it is tried
 * again in seconds rather than after the queue's whole visibility timeout. After the queue's
 * `maxReceiveCount` receives SQS moves it to the dead-letter queue.
 */
import type { SQSBatchItemFailure, SQSRecord } from 'aws-lambda';
import { log } from '../log.js';
import type { QueueTarget } from '../vocabulary/queues.js';
import { backoffSeconds, queues } from './queue.js';

export async function retryLater(queue: QueueTarget, record: SQSRecord, failures: SQSBatchItemFailure[]): Promise<void> {
  failures.push({ itemIdentifier: record.messageId });
  try {
    await queues().changeVisibility(queue, record.receiptHandle, backoffSeconds(Number(record.attributes.ApproximateReceiveCount) || 1));
  } catch (err) {
    // It still comes back, after the visibility timeout instead.
    log.warn('could not shorten the wait of a failed message; it returns after the visibility timeout', { queue, sqs_message_id: record.messageId, err });
  }
}
