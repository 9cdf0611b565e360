/** The local stand-in of SQS: delays, visibility, receive limits and redrive, restarts, the runner's batch failures and batching windows. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalQueues, type QueueHandler } from '../../shared/local/queue.js';
import { startQueueWorkers } from '../../shared/local/queue-workers.js';
import { queueById, triggerOf, workerById, WORKERS } from '../../shared/workers.js';

let now = 1_800_000_000_000;
const clock = () => now;
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('LocalQueues', () => {
  it('holds a delayed message back, hides a received one for the visibility timeout, and counts receives', async () => {
    const q = new LocalQueues({ clock });
    await q.send('webhook-deliveries', [{ body: 'later', delaySeconds: 10 }]);
    expect(q.receive('webhook-deliveries', 10)).toEqual([]);
    now += 10_000;
    const [first] = q.receive('webhook-deliveries', 10);
    expect(first).toMatchObject({ body: 'later', receiveCount: 1 });
    expect(q.receive('webhook-deliveries', 10)).toEqual([]);
    now += queueById('webhook-deliveries').visibilityTimeoutSeconds * 1000;
    expect(q.receive('webhook-deliveries', 10)).toEqual([expect.objectContaining({ body: 'later', receiveCount: 2 })]);
  });

  it('moves a message received maxReceiveCount times to the dead letters, as a redrive policy does, and keeps it there across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-queue-'));
    dirs.push(dir);
    const stateFile = join(dir, 'queues.json');
    const q = new LocalQueues({ clock, stateFile });
    await q.send('webhook-dispatch', [{ body: 'poison' }]);
    const limit = queueById('webhook-dispatch').maxReceiveCount;
    for (let i = 0; i < limit; i++) {
      expect(q.receive('webhook-dispatch', 1)).toHaveLength(1);
      now += queueById('webhook-dispatch').visibilityTimeoutSeconds * 1000;
    }
    // The state file was written after those receives; the move comes later and must be written too.
    await new Promise((r) => setTimeout(r, 300));
    expect(q.receive('webhook-dispatch', 1)).toEqual([]);
    expect(q.messages('webhook-dispatch')).toEqual([]);
    expect(q.messages('webhook-dispatch:dead-letters')).toEqual([
      expect.objectContaining({ body: 'poison', receiveCount: limit }),
    ]);
    await new Promise((r) => setTimeout(r, 300));
    expect(new LocalQueues({ clock, stateFile }).messages('webhook-dispatch:dead-letters')).toEqual([
      expect.objectContaining({ body: 'poison' }),
    ]);
  });

  it('keeps what is queued, with its visibility, across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-queue-'));
    dirs.push(dir);
    const stateFile = join(dir, 'queues.json');
    const before = new LocalQueues({ clock, stateFile });
    await before.send('webhook-deliveries', [{ body: 'waiting' }]);
    const [received] = before.receive('webhook-deliveries', 1);
    await before.changeVisibility('webhook-deliveries', received!.receiptHandle!, 3600);
    before.flush();
    const after = new LocalQueues({ clock, stateFile });
    expect(after.messages('webhook-deliveries')).toEqual([
      expect.objectContaining({ body: 'waiting', receiptHandle: null, visibleAt: now + 3_600_000 }),
    ]);
    expect(after.receive('webhook-deliveries', 1)).toEqual([]);
  });
});

describe('startQueueWorkers', () => {
  it('deletes what the handler took, keeps what it names in batchItemFailures, and keeps the whole batch when it throws', async () => {
    const q = new LocalQueues({ clock });
    let mode: 'partial' | 'throw' = 'partial';
    const handler: QueueHandler = async (event) => {
      if (mode === 'throw') throw new Error('down');
      return {
        batchItemFailures: event.Records.filter((r) => r.body === 'bad').map((r) => ({ itemIdentifier: r.messageId })),
      };
    };
    const workers = await startQueueWorkers({
      queues: q,
      region: 'us-east-1',
      workers: [workerById('webhook-deliver')],
      handlers: { 'webhook-deliver': handler },
      pollMs: 0,
    });
    await q.send('webhook-deliveries', [{ body: 'good' }, { body: 'bad' }]);
    await workers.drain();
    expect(q.messages('webhook-deliveries').map((m) => m.body)).toEqual(['bad']);
    mode = 'throw';
    now += queueById('webhook-deliveries').visibilityTimeoutSeconds * 1000;
    await workers.drain();
    expect(q.messages('webhook-deliveries')).toEqual([expect.objectContaining({ body: 'bad', receiveCount: 2 })]);
    await workers.stop();
  });
});

describe('a queue worker with a batching window (export-lake: 100 messages, 5 s)', () => {
  const trigger = triggerOf('export-lake', 'queue');
  const windowMs = trigger.maxBatchingWindowSeconds! * 1000;

  async function lakeRunner() {
    const q = new LocalQueues({ clock });
    const batches: string[][] = [];
    const workers = await startQueueWorkers({
      queues: q,
      region: 'us-east-1',
      workers: [workerById('export-lake')],
      handlers: {
        'export-lake': (event) => {
          batches.push(event.Records.map((r) => r.body));
          return Promise.resolve();
        },
      },
      pollMs: 0,
    });
    const send = (n: number, body = (i: number) => `m${i}`) =>
      q.send(
        'data-lake',
        Array.from({ length: n }, (_, i) => ({ body: body(i) })),
      );
    return { q, batches, workers, send };
  }

  it('invokes at once when a full batch is there, and leaves the rest to gather', async () => {
    const { q, batches, workers, send } = await lakeRunner();
    await send(trigger.batchSize + 3);
    await workers.poll();
    expect(batches.map((b) => b.length)).toEqual([trigger.batchSize]);
    expect(q.messages('data-lake')).toHaveLength(3);
    await workers.stop();
  });

  it('waits for the window when the batch is not full, then invokes with what is there', async () => {
    const { q, batches, workers, send } = await lakeRunner();
    await send(3);
    await workers.poll();
    now += windowMs - 1;
    await workers.poll();
    expect(batches).toEqual([]);
    now += 1;
    await workers.poll();
    expect(batches).toEqual([['m0', 'm1', 'm2']]);
    expect(q.messages('data-lake')).toEqual([]);
    await workers.stop();
  });

  it('counts a batch that reaches 6 MB as full, as Lambda stops a batch at its payload limit', async () => {
    const { q, batches, workers, send } = await lakeRunner();
    await send(30, (i) => `${i}`.padEnd(250_000, '.'));
    await workers.poll();
    // 25 bodies of 250 KB are 6.25 MB, under 6 MiB; a 26th would pass it.
    expect(batches.map((b) => b.length)).toEqual([25]);
    expect(q.messages('data-lake')).toHaveLength(5);
    await workers.stop();
  });

  it('drain() runs what is visible at once, window or not', async () => {
    const { q, batches, workers, send } = await lakeRunner();
    await send(3);
    await workers.drain();
    expect(batches).toEqual([['m0', 'm1', 'm2']]);
    expect(q.messages('data-lake')).toEqual([]);
    await workers.stop();
  });
});

describe('queue definitions', () => {
  it("follow AWS's rules: over 10 messages a batch needs a window; a queue's visibility is six times its reader's timeout plus its window", () => {
    for (const worker of WORKERS) {
      if (worker.trigger.kind !== 'queue') continue;
      const window = worker.trigger.maxBatchingWindowSeconds ?? 0;
      if (worker.trigger.batchSize > 10) expect(window, worker.id).toBeGreaterThanOrEqual(1);
      expect(queueById(worker.trigger.queue).visibilityTimeoutSeconds, worker.id).toBeGreaterThanOrEqual(
        6 * worker.timeoutSeconds + window,
      );
    }
  });
});
