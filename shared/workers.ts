/**
 * The functions that are not HTTP routes, as data, like the route table: the CDK stack creates
 * one function per entry with its trigger (lib/workers-stack.ts), and the local runtime runs the
 * same handler from the same trigger (shared/local/stream-poller.ts).
 */
import type { RouteGrants } from './routes/types.js';

/** DynamoDB stream record kinds. */
export type StreamEventName = 'INSERT' | 'MODIFY' | 'REMOVE';

/**
 * The single table's stream (NEW_IMAGE), read by a Lambda event source mapping in AWS and by the
 * local poller under `npm start`. Only records that pass the filter reach the handler.
 */
export interface TableStreamTrigger {
  kind: 'table-stream';
  /** Which changes are delivered. */
  eventNames: readonly StreamEventName[];
  /** Only items whose `entity` attribute is one of these. */
  entities: readonly string[];
  /** Records per invocation at most. */
  batchSize: number;
  /**
   * Times a batch that still reports failures is retried; then its failure is sent to the
   * worker's dead-letter queue and the shard moves on.
   */
  retryAttempts: number;
}

export type WorkerTrigger = TableStreamTrigger;

export interface WorkerDef {
  /** Unique, stable id; also the Lambda's logical name. */
  id: string;
  /** Handler entry, relative to the repository root, exporting `handler`. */
  handler: string;
  description: string;
  trigger: WorkerTrigger;
  /** AWS resources the function touches beyond reading its trigger, granted exactly. */
  grants: RouteGrants;
  timeoutSeconds: number;
  memoryMb: number;
}

export const WORKERS: readonly WorkerDef[] = [
  {
    id: 'publish-events',
    handler: 'functions/workers/publish-events.ts',
    description: 'Publishes stored events and outbox messages to the event bus (docs/events.md)',
    trigger: {
      kind: 'table-stream',
      // New items only: a rewrite of an existing event (a retried ingest, marking it processed)
      // is a MODIFY and is not published again.
      eventNames: ['INSERT'],
      entities: ['EVENT', 'OUTBOX'],
      batchSize: 100,
      retryAttempts: 10,
    },
    grants: { eventBus: true },
    // 100 records are 10 PutEvents calls, each entry retried with backoff: far under a minute.
    timeoutSeconds: 60,
    memoryMb: 256,
  },
];

export function workerById(id: string): WorkerDef {
  const worker = WORKERS.find((w) => w.id === id);
  if (!worker) throw new Error(`no worker ${id}`);
  return worker;
}

/**
 * The trigger's filter as an event pattern over the stream record, as Lambda's event filtering
 * reads it (the image in DynamoDB JSON): the CDK event source mapping's filter criteria, and what
 * the local poller applies before invoking the handler.
 */
export function streamFilterPattern(trigger: TableStreamTrigger): Record<string, unknown> {
  return {
    eventName: [...trigger.eventNames],
    dynamodb: { NewImage: { entity: { S: [...trigger.entities] } } },
  };
}
