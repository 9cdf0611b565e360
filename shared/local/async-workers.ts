/**
 * The local runtime of the workers Lambda invokes asynchronously (shared/workers.ts): a schedule
 * worker runs on a timer with EventBridge's "Scheduled Event"; an event-rule worker gets each
 * event of the in-process bus that its pattern matches (locally that bus stands for the account's
 * default bus too). As with Lambda's asynchronous invocation, a failed invocation is tried again
 * `retryAttempts` times, then its event goes to the dead letters (kept in memory, appended to a
 * JSON Lines file, logged).
 *
 * A schedule run that is still going when its next turn comes is not started twice.
 */
import { writeLogLine } from '../log-sink.js';
import type { Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import type { WorkerDef } from '../workers.js';
import { LOCAL_ACCOUNT, localEventBus, type BusEvent, type LocalEventBus } from './event-bus.js';
import { runAsWorker } from './iam-check.js';
import type { ItemSchedules } from './connector-timers.js';
import { importHandler, workerContext } from './lambda-context.js';
import { sourceHandlers, type HandlerFiles } from './handler-files.js';

export type AsyncHandler = (event: BusEvent, context: Context) => Promise<unknown>;

export interface AsyncWorkersOptions {
  region: string;
  /** Schedule and event-rule workers; others are refused. */
  workers: readonly WorkerDef[];
  /** Handler paths are relative to this directory; defaults to the repository root. */
  rootDir?: string;
  /** Where the handlers are: the sources under `rootDir` by default, or the bundles (shared/local/handler-files.ts). */
  files?: HandlerFiles;
  /** Handlers by worker id instead of importing the worker's file (tests). */
  handlers?: Record<string, AsyncHandler>;
  bus?: LocalEventBus;
  /** Dead letters are appended to this file as JSON lines. */
  deadLetterFile?: string;
  /** Between a failed invocation and the next try. Default 1 s (Lambda waits minutes). */
  retryDelayMs?: number;
  /** The period of every schedule, instead of its minutes (tests). */
  scheduleIntervalMs?: number;
}

/** What Lambda's on-failure destination gets for an asynchronous invocation, in short. */
export interface AsyncDeadLetter {
  worker: string;
  event: BusEvent;
  reason: string;
  attempts: number;
  at: string;
}

export type { ItemSchedules } from './connector-timers.js';

export interface AsyncWorkers {
  /** Runs a schedule worker now, as its timer would, and resolves when it (and its retries) ended. */
  runNow(workerId: string): Promise<void>;
  /** A `scheduler` worker's run-time schedules; `timersOn` false keeps them without running them. */
  itemSchedules(workerId: string, timersOn: boolean): ItemSchedules;
  readonly deadLetters: readonly AsyncDeadLetter[];
  /** Stops the timers and subscriptions and waits for what is running. */
  stop(): Promise<void>;
}

export async function startAsyncWorkers(options: AsyncWorkersOptions): Promise<AsyncWorkers> {
  const bus = options.bus ?? localEventBus();
  const deadLetters: AsyncDeadLetter[] = [];
  const running = new Set<Promise<void>>();
  const timers: NodeJS.Timeout[] = [];
  const unsubscribe: (() => void)[] = [];
  const scheduleRuns = new Map<string, Promise<void>>();
  let stopping = false;

  const write = (line: Record<string, unknown>) => writeLogLine({ source: 'async-workers', ...line });

  const invoke = (worker: WorkerDef, handler: AsyncHandler, event: BusEvent): Promise<void> => {
    const retries =
      worker.trigger.kind === 'schedule' || worker.trigger.kind === 'event-rule' ? worker.trigger.retryAttempts : 0;
    const run = (async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          await runAsWorker(worker, () => handler(event, workerContext(worker, options.region)));
          return;
        } catch (error) {
          const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
          if (attempt >= retries || stopping) {
            const letter: AsyncDeadLetter = {
              worker: worker.id,
              event,
              reason,
              attempts: attempt + 1,
              at: new Date().toISOString(),
            };
            deadLetters.push(letter);
            if (options.deadLetterFile) appendFileSync(options.deadLetterFile, `${JSON.stringify(letter)}\n`);
            write({
              level: 'error',
              msg: 'worker failed; its event went to the dead letters',
              worker: worker.id,
              reason,
              attempts: attempt + 1,
            });
            return;
          }
          await new Promise((r) => setTimeout(r, options.retryDelayMs ?? 1000));
        }
      }
    })();
    running.add(run);
    void run.finally(() => running.delete(run));
    return run;
  };

  const runSchedule = new Map<string, () => Promise<void>>();
  const scheduled = new Map<string, (input: unknown) => Promise<void>>();
  const itemTimers = new Map<string, NodeJS.Timeout | null>();
  for (const worker of options.workers) {
    const { trigger } = worker;
    if (trigger.kind === 'table-stream')
      throw new Error(`worker ${worker.id} reads the table stream: the stream poller runs it`);
    if (trigger.kind === 'queue')
      throw new Error(`worker ${worker.id} reads a queue: the queue runner runs it (shared/local/queue-workers.ts)`);
    const handler =
      options.handlers?.[worker.id] ??
      (await importHandler<AsyncHandler>((options.files ?? sourceHandlers(options.rootDir)).fileOf(worker)));
    if (trigger.kind === 'schedule') {
      const tick = () => {
        const current = scheduleRuns.get(worker.id);
        if (current) return current;
        const run = invoke(worker, handler, scheduledEvent(worker, options.region)).finally(() =>
          scheduleRuns.delete(worker.id),
        );
        scheduleRuns.set(worker.id, run);
        return run;
      };
      runSchedule.set(worker.id, tick);
      const timer = setInterval(() => void tick(), options.scheduleIntervalMs ?? trigger.everyMinutes * 60_000);
      // The timer alone does not keep `npm start` (or a test run) alive.
      timer.unref();
      timers.push(timer);
    } else if (trigger.kind === 'scheduler') {
      scheduled.set(worker.id, (input) => invoke(worker, handler, input as BusEvent));
    } else {
      unsubscribe.push(
        bus.subscribe(`worker:${worker.id}`, trigger.pattern, (event) =>
          stopping ? undefined : invoke(worker, handler, event),
        ),
      );
    }
  }

  return {
    runNow: (workerId) => {
      const tick = runSchedule.get(workerId);
      if (!tick) throw new Error(`no schedule worker ${workerId}`);
      return tick();
    },
    itemSchedules: (workerId, timersOn) => {
      const run = scheduled.get(workerId);
      if (!run) throw new Error(`no scheduler worker ${workerId}`);
      const clear = (name: string) => {
        const timer = itemTimers.get(name);
        if (timer) clearInterval(timer);
        itemTimers.delete(name);
      };
      return {
        put: (name, everyMinutes, enabled, input) => {
          clear(name);
          if (!enabled || !timersOn || stopping) return void itemTimers.set(name, null);
          let current: Promise<void> | undefined;
          const timer = setInterval(
            () => {
              // A run still going when its next turn comes is not started twice.
              if (current) return;
              current = run(input).finally(() => (current = undefined));
            },
            options.scheduleIntervalMs ?? everyMinutes * 60_000,
          );
          timer.unref();
          itemTimers.set(name, timer);
        },
        remove: clear,
        names: () => [...itemTimers.keys()],
      };
    },
    deadLetters,
    stop: async () => {
      stopping = true;
      timers.forEach(clearInterval);
      itemTimers.forEach((t) => t && clearInterval(t));
      unsubscribe.forEach((u) => u());
      await Promise.allSettled([...running]);
    },
  };
}

/** EventBridge's event for a scheduled rule. */
function scheduledEvent(worker: WorkerDef, region: string): BusEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: LOCAL_ACCOUNT,
    time: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region,
    resources: [`arn:aws:events:${region}:${LOCAL_ACCOUNT}:rule/gatehouse-${worker.id}`],
    detail: {},
  };
}
