/**
 * A queue worker's failed message is reported as a batch item failure (shared/worker-handler.ts
 * `queueBatch`) and hidden for a wait, so it is tried again in seconds rather than after the queue's
 * whole visibility timeout: a backoff that doubles with its receives (shared/adapters/queue.ts
 * `backoffSeconds`), or the delay its work asks for. After the queue's `maxReceiveCount` receives
 * SQS moves it to the dead-letter queue.
 */
import type { SQSRecord } from 'aws-lambda';
import { log } from '../log.js';
import type { QueueTarget } from '../vocabulary/queues.js';
import { backoffSeconds, queues } from './queue.js';

/**
 * Thrown by a queue message's work that is to be tried again after `delaySeconds` of its own
 * choosing (a webhook delivery's retry schedule) instead of the backoff: the message is hidden that
 * long and reported as a batch item failure, so the queue gives it back then and no function waits.
 */
export class RetryAfter extends Error {
  constructor(readonly delaySeconds: number) {
    super(`to be tried again in ${delaySeconds} s`);
    this.name = 'RetryAfter';
  }
}

/**
 * Hides a failed message for its wait: the delay a `RetryAfter` asks for, else a backoff that
 * doubles with its receives. A wait that cannot be set is logged: the message still comes back,
 * after the visibility timeout instead.
 */
export async function hideFailedMessage(queue: QueueTarget, record: SQSRecord, err: unknown): Promise<void> {
  const seconds =
    err instanceof RetryAfter
      ? err.delaySeconds
      : backoffSeconds(Number(record.attributes.ApproximateReceiveCount) || 1);
  try {
    await queues().changeVisibility(queue, record.receiptHandle, seconds);
  } catch (error) {
    log.warn('could not shorten the wait of a failed message; it returns after the visibility timeout', {
      queue,
      sqs_message_id: record.messageId,
      err: error,
    });
  }
}

/** What a queue worker does with its failed messages (shared/worker-handler.ts `QueueBatchOptions.hide`): hides them on `queue`. */
export const backoffOn =
  (queue: QueueTarget) =>
  (record: SQSRecord, err: unknown): Promise<void> =>
    hideFailedMessage(queue, record, err);
