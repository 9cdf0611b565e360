/**
 * The service's queues (shared/workers.ts QUEUES): SQS in AWS, unless the program was composed
 * with another (the local runtime installs its own: shared/local/queue.ts). A queue's URL comes
 * from `QUEUE_URL_<ID>` (and its dead-letter queue's from `QUEUE_URL_<ID>_DEAD_LETTERS`), which the
 * CDK stack sets only for the functions its grants name.
 */
import {
  ChangeMessageVisibilityCommand,
  GetQueueAttributesCommand,
  SendMessageBatchCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { QueueId, QueueTarget } from '../vocabulary/queues.js';
import { portOf, setPort } from '../runtime-ports.js';
import { tracedClient } from '../tracing.js';

export interface OutgoingMessage {
  body: string;
  /** Held back this long before it can be received (0 to 900 s). */
  delaySeconds?: number;
}

export interface Queues {
  /** Sends the messages (any number; in batches of 10). Throws when any was not accepted. */
  send(to: QueueTarget, messages: readonly OutgoingMessage[]): Promise<void>;
  /**
   * Hides a received message for `seconds` from now (0 to 43,200): the consumer reports it as
   * failed and the queue gives it back when that time has passed.
   */
  changeVisibility(queue: QueueTarget, receiptHandle: string, seconds: number): Promise<void>;
  /** How many messages the queue holds, visible and in flight, and its dead-letter queue (SQS's approximate counts). */
  depth(queue: QueueId): Promise<QueueDepth>;
}

export interface QueueDepth {
  /** Waiting to be received. */
  visible: number;
  /** Received and not yet deleted, or waiting out a retry delay. */
  in_flight: number;
  dead_letters: number;
}

/** The longest SQS hides a message: 12 hours. */
export const MAX_VISIBILITY_SECONDS = 43_200;
/** The longest SQS delays a new message: 15 minutes. */
export const MAX_DELAY_SECONDS = 900;

/** The environment variable holding a queue's URL. */
export function queueUrlVariable(target: QueueTarget): string {
  return `QUEUE_URL_${target.replace(':', '_').replace(/-/g, '_').toUpperCase()}`;
}

function urlOf(target: QueueTarget): string {
  const url = process.env[queueUrlVariable(target)];
  if (!url)
    throw new Error(`${queueUrlVariable(target)} is not set: this function's grants do not name queue ${target}`);
  return url;
}

export class SqsQueues implements Queues {
  constructor(private readonly client: SQSClient) {}

  async send(to: QueueTarget, messages: readonly OutgoingMessage[]): Promise<void> {
    const url = urlOf(to);
    for (let i = 0; i < messages.length; i += 10) {
      const chunk = messages.slice(i, i + 10);
      const out = await this.client.send(
        new SendMessageBatchCommand({
          QueueUrl: url,
          Entries: chunk.map((m, j) => ({
            Id: String(j),
            MessageBody: m.body,
            ...(m.delaySeconds ? { DelaySeconds: m.delaySeconds } : {}),
          })),
        }),
      );
      if ((out.Failed ?? []).length > 0) {
        const first = out.Failed![0]!;
        throw new Error(
          `${out.Failed!.length} of ${chunk.length} messages were not accepted by ${to}: ${first.Code} ${first.Message ?? ''}`,
        );
      }
    }
  }

  async depth(queue: QueueId): Promise<QueueDepth> {
    const count = async (target: QueueTarget) => {
      const out = await this.client.send(
        new GetQueueAttributesCommand({
          QueueUrl: urlOf(target),
          AttributeNames: [
            'ApproximateNumberOfMessages',
            'ApproximateNumberOfMessagesNotVisible',
            'ApproximateNumberOfMessagesDelayed',
          ],
        }),
      );
      const a = out.Attributes ?? {};
      return {
        visible: Number(a.ApproximateNumberOfMessages ?? 0),
        hidden:
          Number(a.ApproximateNumberOfMessagesNotVisible ?? 0) + Number(a.ApproximateNumberOfMessagesDelayed ?? 0),
      };
    };
    const [main, dead] = await Promise.all([count(queue), count(`${queue}:dead-letters`)]);
    return { visible: main.visible, in_flight: main.hidden, dead_letters: dead.visible + dead.hidden };
  }

  async changeVisibility(queue: QueueTarget, receiptHandle: string, seconds: number): Promise<void> {
    await this.client.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: urlOf(queue),
        ReceiptHandle: receiptHandle,
        VisibilityTimeout: Math.min(MAX_VISIBILITY_SECONDS, Math.max(0, Math.round(seconds))),
      }),
    );
  }
}

/**
 * After a failed attempt: how long a message waits before it is received again, doubling with its
 * receives (`base`, 2 x `base`, 4 x `base`, ... at most `max` seconds), so a passing fault is
 * retried in seconds rather than after the whole visibility timeout.
 */
export function backoffSeconds(receiveCount: number, base = 2, max = 300): number {
  return Math.min(max, base * 2 ** Math.max(0, receiveCount - 1));
}

let sqs: Queues | undefined;

/** Where the program is composed: the queues to use instead of SQS (shared/runtime-ports.ts). */
export function useQueues(queues: Queues): void {
  setPort('queues', queues);
}

/** The deployment's queues; the SQS client is created on first use. */
export function queues(): Queues {
  // The region Lambda sets (AWS_REGION), as shared/config.ts reads it; not imported here, so the
  // local runtime and the CDK app can load this module before the configuration exists.
  return (
    portOf<Queues>('queues') ?? (sqs ??= new SqsQueues(tracedClient(new SQSClient({ region: process.env.AWS_REGION }))))
  );
}
