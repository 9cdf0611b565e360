/**
 * The runner of the queue workers under `npm start`, as Lambda's event source mapping runs them
 * over the local queues (shared/local/queue.ts): up to `batchSize` messages (and 6 MB) as an SQS
 * event, the ones the handler does not name in `batchItemFailures` deleted; a handler that throws
 * keeps them all. A trigger with a batching window waits until its batch is full or the oldest
 * visible message has waited the window; `drain()` runs everything visible at once, window or not.
 */
import type { SQSEvent } from 'aws-lambda';
import { writeLogLine } from '../log-sink.js';
import type { QueueTrigger, WorkerDef } from '../workers.js';
import { LOCAL_ACCOUNT } from './event-bus.js';
import { runAsWorker } from './iam-check.js';
import { importHandler, workerContext } from './lambda-context.js';
import type { LocalQueues, QueuedMessage, QueueHandler } from './queue.js';
import { sourceHandlers, type HandlerFiles } from './handler-files.js';

export interface QueueWorkersOptions {
  queues: LocalQueues;
  region: string;
  /** Queue workers; others are refused. */
  workers: readonly WorkerDef[];
  rootDir?: string;
  /** Where the handlers are: the sources under `rootDir` by default, or the bundles (shared/local/handler-files.ts). */
  files?: HandlerFiles;
  /** Handlers by worker id instead of importing the worker's file (tests). */
  handlers?: Record<string, QueueHandler>;
  /** Look for visible messages this often besides when one is sent. Default 100 ms; 0: only `drain()` runs them (tests with a fake clock). */
  pollMs?: number;
}

export interface QueueWorkers {
  /** Runs the workers until no message of their queues is visible now (a fake clock's tests call it after each step). */
  drain(): Promise<void>;
  /** Looks once, as the poll does (batching windows honoured), and waits for the batches it started. */
  poll(): Promise<void>;
  stop(): Promise<void>;
}

/** Lambda's payload limit for a synchronous invocation: an event source mapping's batch stops there. */
const PAYLOAD_BYTES = 6 * 1024 * 1024;

/** Runs each queue worker over its queue, as an event source mapping does. */
export async function startQueueWorkers(options: QueueWorkersOptions): Promise<QueueWorkers> {
  const { queues } = options;
  const running = new Set<Promise<void>>();
  let stopping = false;
  const consumers: { worker: WorkerDef; trigger: QueueTrigger; handler: QueueHandler; active: number }[] = [];
  for (const worker of options.workers) {
    if (worker.trigger.kind !== 'queue') throw new Error(`worker ${worker.id} is not triggered by a queue`);
    const handler =
      options.handlers?.[worker.id] ??
      (await importHandler<QueueHandler>((options.files ?? sourceHandlers(options.rootDir)).fileOf(worker)));
    consumers.push({ worker, trigger: worker.trigger, handler, active: 0 });
  }

  const runBatch = async (c: (typeof consumers)[number], batch: QueuedMessage[]): Promise<void> => {
    const queue = c.trigger.queue;
    const event: SQSEvent = {
      Records: batch.map((m) => ({
        messageId: m.messageId,
        receiptHandle: m.receiptHandle!,
        body: m.body,
        attributes: {
          ApproximateReceiveCount: String(m.receiveCount),
          SentTimestamp: String(m.sentAt),
          SenderId: LOCAL_ACCOUNT,
          ApproximateFirstReceiveTimestamp: String(queues.clock()),
        },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: queues.arn(queue),
        awsRegion: options.region,
      })),
    };
    try {
      const answer = await runAsWorker(
        c.worker,
        () => c.handler(event, workerContext(c.worker, options.region)),
        queue,
      );
      const failed = new Set((answer?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
      for (const m of batch) if (!failed.has(m.messageId)) queues.delete(queue, m.receiptHandle!);
    } catch (error) {
      // As Lambda: the whole batch stays and comes back after its visibility timeout.
      writeLogLine({
        level: 'error',
        source: 'local-queue',
        msg: 'queue worker failed; its messages return after their visibility timeout',
        worker: c.worker.id,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
    }
  };

  /** Whether the consumer's batch is due: full, or its oldest message has waited the window (none: at once). */
  const due = ({ trigger }: (typeof consumers)[number]): boolean => {
    if (trigger.maxBatchingWindowSeconds === undefined) return true;
    const { full, oldestVisibleAt } = queues.visibleBatch(trigger.queue, trigger.batchSize, PAYLOAD_BYTES);
    if (oldestVisibleAt === null) return false;
    return full || queues.clock() - oldestVisibleAt >= trigger.maxBatchingWindowSeconds * 1000;
  };

  /**
   * Starts batches while there are visible messages, due ones unless `all`, and room; returns
   * what it started.
   */
  const pump = (all = false): Promise<void>[] => {
    const started: Promise<void>[] = [];
    if (stopping) return started;
    for (const c of consumers) {
      while (c.active < c.trigger.maxConcurrency) {
        if (!all && !due(c)) break;
        const batch = queues.receive(c.trigger.queue, c.trigger.batchSize, PAYLOAD_BYTES);
        if (batch.length === 0) break;
        c.active += 1;
        const run = runBatch(c, batch).finally(() => {
          c.active -= 1;
          running.delete(run);
          // A slot is free: more may be waiting.
          if (!stopping && (options.pollMs ?? 100) > 0) void pump();
        });
        running.add(run);
        started.push(run);
      }
    }
    return started;
  };

  const pollMs = options.pollMs ?? 100;
  let timer: NodeJS.Timeout | undefined;
  let unlisten: (() => void) | undefined;
  if (pollMs > 0) {
    timer = setInterval(() => void pump(), pollMs);
    timer.unref();
    // A message sent now is received at once, as a long poll would.
    unlisten = queues.onChange(() => setImmediate(() => void pump()));
  }

  return {
    async drain() {
      for (;;) {
        const started = pump(true);
        if (started.length === 0 && running.size === 0) return;
        await Promise.allSettled([...running]);
      }
    },
    async poll() {
      await Promise.allSettled(pump());
    },
    async stop() {
      stopping = true;
      if (timer) clearInterval(timer);
      unlisten?.();
      await Promise.allSettled([...running]);
      queues.flush();
    },
  };
}
