/**
 * Keeps a local stand-in running. When its process ends without being asked to (it crashed, or
 * was killed with SIGKILL), it is started again on the same endpoint, with growing pauses between
 * failed tries, and `recovered` runs (provisioning again, reading the stream again). Requests
 * meanwhile get 503 with Retry-After; /health answers 503 until the stand-in is back, and 200
 * after, with no restart of the server.
 */
import type { ChildExit } from './process.js';

interface Running {
  exited: Promise<ChildExit>;
  stop(): Promise<void>;
}

export interface Supervised<T extends Running> {
  current(): T;
  /** How many times it was started again. */
  restarts(): number;
  stop(): Promise<void>;
}

export interface SuperviseOptions<T extends Running> {
  name: string;
  restart: () => Promise<T>;
  recovered: (next: T) => Promise<void>;
  log: (message: string, fields?: Record<string, unknown>) => void;
}

const MAX_PAUSE_MS = 30_000;
/** Signals that ask a process to stop (a crash, an OOM kill or SIGKILL is not asking). */
const ASKED_TO_STOP = new Set<NodeJS.Signals>(['SIGINT', 'SIGTERM', 'SIGHUP']);

export function supervise<T extends Running>(first: T, options: SuperviseOptions<T>): Supervised<T> {
  let current = first;
  let stopping = false;
  let restarts = 0;
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const watch = async (instance: T): Promise<void> => {
    const exit = await instance.exited;
    if (stopping) return;
    // A stop signal is being asked to stop: Ctrl-C reaches the whole process group, the
    // stand-ins too, before this process has begun stopping them.
    if (exit.signal && ASKED_TO_STOP.has(exit.signal)) {
      options.log(`${options.name} was stopped by ${exit.signal}; not starting it again`);
      return;
    }
    options.log(`${options.name} ended unexpectedly; starting it again`, { ...exit });
    for (let attempt = 0; !stopping; attempt++) {
      if (attempt > 0) await pause(Math.min(MAX_PAUSE_MS, 500 * 2 ** attempt));
      if (stopping) return;
      let next: T;
      try {
        next = await options.restart();
      } catch (error) {
        options.log(`${options.name} could not be started again; trying once more`, { error: String(error) });
        continue;
      }
      if (stopping) {
        await next.stop();
        return;
      }
      current = next;
      restarts++;
      try {
        await options.recovered(next);
        options.log(`${options.name} is running again`);
      } catch (error) {
        options.log(`${options.name} is running again, but recovering after it failed`, { error: String(error) });
      }
      void watch(next);
      return;
    }
  };
  void watch(first);

  return {
    current: () => current,
    restarts: () => restarts,
    stop: async () => {
      stopping = true;
      wake?.();
      await current.stop();
    },
  };
}
