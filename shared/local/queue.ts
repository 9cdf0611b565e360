/**
 * The local stand-in of SQS for the service's queues (shared/workers.ts QUEUES); the runner of the
 * workers they trigger, as Lambda's event source mapping runs them, is queue-workers.ts (apart, so
 * that compose.ts installs the queues without importing the handler loader, which imports it):
 *
 * - a message sent with a delay is not received before it;
 * - a received message is hidden for the queue's visibility timeout (or what its consumer set with
 *   `changeVisibility`), then received again unless it was deleted;
 * - the runner invokes the worker with up to `batchSize` messages as an SQS event and deletes the
 *   ones it does not name in `batchItemFailures`; a handler that throws keeps them all;
 * - a message received more than `maxReceiveCount` times moves to the queue's dead-letter queue,
 *   as SQS's redrive policy does, and the consumer may send there itself.
 *
 * State is kept in memory and written to a JSON file shortly after each change and at stop (when a
 * file is given), so what is queued survives a restart of `npm start`. The clock is injectable: the tests drive the
 * retry schedule with a fake one and `drain()`.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import {
  MAX_DELAY_SECONDS,
  MAX_VISIBILITY_SECONDS,
  type OutgoingMessage,
  type QueueDepth,
  type Queues,
} from '../adapters/queue.js';
import { writeLogLine } from '../log-sink.js';
import { queueById, QUEUES, type QueueId, type QueueTarget } from '../workers.js';
import { LOCAL_ACCOUNT } from './event-bus.js';
import { checkAction, checkConsumer } from './iam-check.js';

export interface QueuedMessage {
  messageId: string;
  body: string;
  sentAt: number;
  /** Not received before this time (ms). */
  visibleAt: number;
  receiveCount: number;
  /** The handle of its latest receipt; null until received. */
  receiptHandle: string | null;
}

// eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- as aws-lambda's handler type: a handler that returns nothing is one
export type QueueHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface LocalQueuesOptions {
  /** State file (JSON), rewritten after each change. */
  stateFile?: string;
  /** Milliseconds now. Default Date.now. */
  clock?: () => number;
  region?: string;
}

const arnOf = (region: string, target: string) =>
  `arn:aws:sqs:${region}:${LOCAL_ACCOUNT}:gatehouse-${target.replace(':', '-')}`;

export class LocalQueues implements Queues {
  private readonly state = new Map<string, QueuedMessage[]>();
  private readonly listeners = new Set<() => void>();
  readonly clock: () => number;
  readonly region: string;

  constructor(private readonly options: LocalQueuesOptions = {}) {
    this.clock = options.clock ?? Date.now;
    this.region = options.region ?? 'eu-west-1';
    for (const q of QUEUES) {
      this.state.set(q.id, []);
      this.state.set(`${q.id}:dead-letters`, []);
    }
    if (options.stateFile && existsSync(options.stateFile)) {
      const saved = JSON.parse(readFileSync(options.stateFile, 'utf8')) as Record<string, QueuedMessage[]>;
      for (const [target, messages] of Object.entries(saved)) {
        // A receipt does not survive the process that held it; the message keeps its visibility
        // (a retry waiting hours still waits them, one in flight returns after its timeout).
        if (this.state.has(target))
          this.state.set(
            target,
            messages.map((m) => ({ ...m, receiptHandle: null })),
          );
      }
    }
  }

  send(to: QueueTarget, messages: readonly OutgoingMessage[]): Promise<void> {
    checkAction('sqs:SendMessage', to);
    const list = this.list(to);
    const at = this.clock();
    for (const m of messages) {
      const delay = m.delaySeconds ?? 0;
      if (delay < 0 || delay > MAX_DELAY_SECONDS)
        throw new Error(`DelaySeconds ${delay} is outside 0..${MAX_DELAY_SECONDS}`);
      if (Buffer.byteLength(m.body) > 256 * 1024) throw new Error('a message is at most 256 KB');
      list.push({
        messageId: randomUUID(),
        body: m.body,
        sentAt: at,
        visibleAt: at + delay * 1000,
        receiveCount: 0,
        receiptHandle: null,
      });
    }
    this.changed();
    return Promise.resolve();
  }

  changeVisibility(queue: QueueTarget, receiptHandle: string, seconds: number): Promise<void> {
    checkConsumer(queue);
    const message = this.list(queue).find((m) => m.receiptHandle === receiptHandle);
    if (!message)
      return Promise.reject(new Error(`ReceiptHandleIsInvalid: no message of ${queue} has receipt ${receiptHandle}`));
    message.visibleAt = this.clock() + Math.min(MAX_VISIBILITY_SECONDS, Math.max(0, Math.round(seconds))) * 1000;
    this.changed();
    return Promise.resolve();
  }

  /** Every message of a queue or dead-letter queue, in flight or not (a copy). */
  depth(queue: QueueId): Promise<QueueDepth> {
    checkAction('sqs:GetQueueAttributes', queue);
    checkAction('sqs:GetQueueAttributes', `${queue}:dead-letters`);
    const now = this.clock();
    const main = this.list(queue);
    const visible = main.filter((m) => m.visibleAt <= now).length;
    return Promise.resolve({
      visible,
      in_flight: main.length - visible,
      dead_letters: this.list(`${queue}:dead-letters`).length,
    });
  }

  messages(target: QueueTarget): QueuedMessage[] {
    return this.list(target).map((m) => ({ ...m }));
  }

  /**
   * Receives up to `max` visible messages, as ReceiveMessage does, and no more than `maxBytes` of
   * bodies (one at least); over the receive limit they move to the dead letters.
   */
  receive(queue: QueueTarget, max: number, maxBytes = Infinity): QueuedMessage[] {
    const def = queueById(queue);
    const list = this.list(queue);
    const now = this.clock();
    const got: QueuedMessage[] = [];
    let bytes = 0;
    let moved = false;
    for (const m of [...list]) {
      if (got.length >= max) break;
      if (m.visibleAt > now) continue;
      if (got.length > 0 && bytes + Buffer.byteLength(m.body) > maxBytes) break;
      if (m.receiveCount >= def.maxReceiveCount) {
        list.splice(list.indexOf(m), 1);
        this.list(`${def.id}:dead-letters` as QueueTarget).push({ ...m, receiptHandle: null, visibleAt: now });
        writeLogLine({
          level: 'error',
          source: 'local-queue',
          msg: 'message moved to the dead letters after its receive limit',
          queue,
          message_id: m.messageId,
          receives: m.receiveCount,
        });
        moved = true;
        continue;
      }
      bytes += Buffer.byteLength(m.body);
      m.receiveCount += 1;
      m.receiptHandle = randomUUID();
      m.visibleAt = now + def.visibilityTimeoutSeconds * 1000;
      got.push({ ...m });
    }
    // A move to the dead letters is a change too: it must reach the state file.
    if (got.length > 0 || moved) this.changed();
    return got;
  }

  /**
   * What `receive(queue, max, maxBytes)` would deliver now, without receiving it: how many
   * messages, whether the batch is full (`max` of them, or the next would pass `maxBytes`), and
   * since when the oldest of them has been visible (null: none is).
   */
  visibleBatch(
    queue: QueueTarget,
    max: number,
    maxBytes = Infinity,
  ): { count: number; full: boolean; oldestVisibleAt: number | null } {
    const { maxReceiveCount } = queueById(queue);
    const now = this.clock();
    let count = 0;
    let bytes = 0;
    let oldestVisibleAt: number | null = null;
    for (const m of this.list(queue)) {
      if (m.visibleAt > now || m.receiveCount >= maxReceiveCount) continue;
      const size = Buffer.byteLength(m.body);
      if (count > 0 && bytes + size > maxBytes) return { count, full: true, oldestVisibleAt };
      count += 1;
      bytes += size;
      oldestVisibleAt = Math.min(oldestVisibleAt ?? m.visibleAt, m.visibleAt);
      if (count >= max) return { count, full: true, oldestVisibleAt };
    }
    return { count, full: false, oldestVisibleAt };
  }

  /** Deletes a received message by its latest receipt (a stale receipt deletes nothing). */
  delete(queue: QueueTarget, receiptHandle: string): void {
    const list = this.list(queue);
    const i = list.findIndex((m) => m.receiptHandle === receiptHandle);
    if (i >= 0) {
      list.splice(i, 1);
      this.changed();
    }
  }

  /** The earliest time a message of `queue` becomes visible, or null when it is empty. */
  nextVisibleAt(queue: QueueTarget): number | null {
    const list = this.list(queue);
    return list.length === 0 ? null : Math.min(...list.map((m) => m.visibleAt));
  }

  /** Called after every change (the runner wakes up on it). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  arn(target: string): string {
    return arnOf(this.region, target);
  }

  private list(target: string): QueuedMessage[] {
    const list = this.state.get(target);
    if (!list) throw new Error(`no queue ${target}`);
    return list;
  }

  private changed(): void {
    // Written at most every 200 ms (a batch of 100 events is 100 sends), and at flush().
    if (this.options.stateFile && !this.saving) {
      this.saving = setTimeout(() => this.flush(), 200);
      this.saving.unref();
    }
    for (const listener of this.listeners) listener();
  }

  private saving: NodeJS.Timeout | undefined;

  /** Writes the state file now (the runner calls it when it stops). */
  flush(): void {
    if (this.saving) clearTimeout(this.saving);
    this.saving = undefined;
    if (!this.options.stateFile) return;
    const tmp = `${this.options.stateFile}.tmp`;
    writeFileSync(tmp, JSON.stringify(Object.fromEntries(this.state)));
    renameSync(tmp, this.options.stateFile);
  }
}

const KEY = Symbol.for('gatehouse.localQueues');

/**
 * This process's queues (kept on globalThis, so two copies of this module share them); the state
 * file is `LOCAL_QUEUES_FILE` when set.
 */
export function localQueues(): LocalQueues {
  const holder = globalThis as unknown as Record<symbol, LocalQueues | undefined>;
  return (holder[KEY] ??= new LocalQueues({
    stateFile: process.env.LOCAL_QUEUES_FILE,
    region: process.env.AWS_REGION,
  }));
}
