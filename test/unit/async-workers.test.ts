/**
 * The local runtime of schedule and event-rule workers (shared/local/async-workers.ts): timers and
 * bus subscriptions invoke the handler as Lambda's asynchronous invocation would, with retries and
 * dead letters.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startAsyncWorkers, type AsyncHandler, type AsyncWorkers } from '../../shared/local/async-workers.js';
import { LocalEventBus, type BusEvent } from '../../shared/local/event-bus.js';
import type { WorkerDef } from '../../shared/workers.js';

const base = { handler: 'unused.ts', description: 'probe', grants: {}, timeoutSeconds: 5, memoryMb: 128 };
const scheduled: WorkerDef = {
  ...base,
  id: 'probe-schedule',
  trigger: { kind: 'schedule', everyMinutes: 1, retryAttempts: 1 },
};
const ruled: WorkerDef = {
  ...base,
  id: 'probe-rule',
  trigger: {
    kind: 'event-rule',
    pattern: {
      source: ['aws.transcribe'],
      'detail-type': ['Transcribe Job State Change'],
      detail: { TranscriptionJobName: [{ prefix: 'gh-' }] },
    },
    retryAttempts: 2,
  },
};

let running: AsyncWorkers | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

const until = async (probe: () => boolean) => {
  for (let i = 0; i < 400 && !probe(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(probe()).toBe(true);
};

describe('schedule workers', () => {
  it('run on their timer with a Scheduled Event and a Lambda context, never two runs at once', async () => {
    const got: { event: BusEvent; remaining: number }[] = [];
    let release!: () => void;
    const handler: AsyncHandler = async (event, context) => {
      got.push({ event, remaining: context.getRemainingTimeInMillis() });
      if (got.length === 2) await new Promise<void>((r) => (release = r));
    };
    running = await startAsyncWorkers({
      region: 'us-east-1',
      workers: [scheduled],
      handlers: { [scheduled.id]: handler },
      scheduleIntervalMs: 20,
    });
    await until(() => got.length >= 2);
    // The second run hangs: ticks meanwhile start nothing.
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toHaveLength(2);
    release();
    await until(() => got.length >= 3);
    expect(got[0]!.event).toMatchObject({
      source: 'aws.events',
      'detail-type': 'Scheduled Event',
      detail: {},
      resources: [expect.stringContaining('probe-schedule')],
    });
    expect(got[0]!.remaining).toBeGreaterThan(4000);
    expect(got[0]!.remaining).toBeLessThanOrEqual(5000);
  });

  it('runNow runs one at once; a failed run is retried, then dead-lettered with its reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gh-async-'));
    try {
      let calls = 0;
      running = await startAsyncWorkers({
        region: 'us-east-1',
        workers: [scheduled],
        handlers: {
          [scheduled.id]: async () => {
            calls++;
            throw new Error('table unreachable');
          },
        },
        retryDelayMs: 5,
        deadLetterFile: join(dir, 'dead.jsonl'),
      });
      await running.runNow(scheduled.id);
      // retryAttempts 1: two tries in all.
      expect(calls).toBe(2);
      expect(running.deadLetters).toEqual([
        expect.objectContaining({ worker: scheduled.id, attempts: 2, reason: 'Error: table unreachable' }),
      ]);
      const lines = readFileSync(join(dir, 'dead.jsonl'), 'utf8').trim().split('\n');
      expect(JSON.parse(lines[0]!)).toMatchObject({
        worker: scheduled.id,
        event: { 'detail-type': 'Scheduled Event' },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('event-rule workers', () => {
  it('get the bus events their pattern matches, and nothing else; a failure is retried', async () => {
    const bus = new LocalEventBus();
    const got: BusEvent[] = [];
    let failOnce = true;
    running = await startAsyncWorkers({
      region: 'us-east-1',
      workers: [ruled],
      bus,
      retryDelayMs: 5,
      handlers: {
        [ruled.id]: async (event) => {
          if (failOnce) {
            failOnce = false;
            throw new Error('first try fails');
          }
          got.push(event);
        },
      },
    });
    bus.put(
      [
        {
          source: 'aws.transcribe',
          detailType: 'Transcribe Job State Change',
          detail: { TranscriptionJobName: 'gh-abc', TranscriptionJobStatus: 'COMPLETED' },
          time: new Date().toISOString(),
        },
        {
          source: 'aws.transcribe',
          detailType: 'Transcribe Job State Change',
          detail: { TranscriptionJobName: 'someone-elses', TranscriptionJobStatus: 'COMPLETED' },
          time: new Date().toISOString(),
        },
        {
          source: 'gatehouse.incidents',
          detailType: 'incident.created',
          detail: { TranscriptionJobName: 'gh-abc' },
          time: new Date().toISOString(),
        },
      ],
      'us-east-1',
    );
    await bus.idle();
    await until(() => got.length >= 1);
    expect(got.map((e) => e.detail.TranscriptionJobName)).toEqual(['gh-abc']);
    expect(running.deadLetters).toEqual([]);
  });

  it('refuses a table-stream worker: the stream poller runs those', async () => {
    const stream: WorkerDef = {
      ...base,
      id: 'probe-stream',
      trigger: {
        kind: 'table-stream',
        filters: [{ eventNames: ['INSERT'], entities: ['X'] }],
        batchSize: 1,
        retryAttempts: 0,
      },
    };
    await expect(
      startAsyncWorkers({ region: 'us-east-1', workers: [stream], handlers: { [stream.id]: async () => undefined } }),
    ).rejects.toThrow(/stream poller/);
  });
});

describe('scheduler workers (schedules made at run time, one per item)', () => {
  const poller: WorkerDef = {
    ...base,
    id: 'probe-poller',
    trigger: { kind: 'scheduler', retryAttempts: 0, poller: 'standard' },
  };

  it('run each item schedule on its timer with its own input; a disabled or removed one stops', async () => {
    const got: unknown[] = [];
    running = await startAsyncWorkers({
      region: 'us-east-1',
      workers: [poller],
      handlers: { [poller.id]: async (event) => void got.push(event) },
      scheduleIntervalMs: 20,
    });
    const schedules = running.itemSchedules(poller.id, true);
    schedules.put('conn-a', 15, true, { integration_id: 'a' });
    schedules.put('conn-b', 15, true, { integration_id: 'b' });
    await until(
      () =>
        got.some((e) => (e as { integration_id: string }).integration_id === 'a') &&
        got.some((e) => (e as { integration_id: string }).integration_id === 'b'),
    );
    schedules.put('conn-a', 15, false, { integration_id: 'a' });
    schedules.remove('conn-b');
    expect(schedules.names()).toEqual(['conn-a']);
    await new Promise((r) => setTimeout(r, 30));
    const before = got.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toHaveLength(before);
  });

  it('keep their schedules without running them when the timers are off (LOCAL_CONNECTORS unset)', async () => {
    const got: unknown[] = [];
    running = await startAsyncWorkers({
      region: 'us-east-1',
      workers: [poller],
      handlers: { [poller.id]: async (event) => void got.push(event) },
      scheduleIntervalMs: 10,
    });
    const schedules = running.itemSchedules(poller.id, false);
    schedules.put('conn-a', 15, true, { integration_id: 'a' });
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toEqual([]);
    expect(schedules.names()).toEqual(['conn-a']);
  });
});
