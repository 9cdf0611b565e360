/** The names of the service's queues (their definitions: QUEUES in shared/workers.ts). */
export const QUEUE_IDS = [
  'webhook-dispatch',
  'webhook-deliveries',
  'notifications',
  'workflow-runs',
  'vessel-episodes',
  'data-lake',
  'map-extractions',
  'plan-changes',
] as const;

export type QueueId = (typeof QUEUE_IDS)[number];

/**
 * How often a `map-extractions` message is received before it goes to its dead letters (its
 * queue's `maxReceiveCount`): the worker marks the file failed on the last.
 */
export const MAP_EXTRACTION_RECEIVES = 3;

/** A queue, or its dead-letter queue: where something may be sent. */
export type QueueTarget = QueueId | `${QueueId}:dead-letters`;

/**
 * A queue's message as the domain reads a batch of them: its body, its id (for the logs) and the
 * caller's key for it (the record), by which the domain answers those that failed.
 */
export interface QueueMessage<K> {
  key: K;
  id: string;
  body: string;
}
