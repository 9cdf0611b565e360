/**
 * Child processes and ports for the local stand-ins: free ports chosen at run time, children whose
 * output goes to a log file, stopped by their own PID (never by name), and readiness polling.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';

/** What starting a local stand-in returns. */
export interface LocalService {
  endpoint: string;
  stop(): Promise<void>;
}

/** A port nobody listens on right now. Another process may take it before we do: callers retry. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Child {
  readonly pid: number;
  readonly name: string;
  readonly logFile: string;
  /** Settles when the process has ended, for whatever reason. */
  readonly exited: Promise<ChildExit>;
  running(): boolean;
  /** SIGTERM to this PID, SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
  /** The end of its log, for error messages. */
  tail(bytes?: number): string;
}

export interface StartChildOptions {
  name: string;
  command: string;
  args: readonly string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** stdout and stderr are appended here, so a chatty child never blocks on a full pipe. */
  logFile: string;
}

// Children still running. If this process ends without stopping them, they are killed: on 'exit'
// (process.exit, an uncaught error) and on a terminating signal nobody else handles (vitest stops
// its workers with SIGTERM, which skips 'exit'), so no DynamoDB Local is left holding a port.
const live = new Map<number, string>();
let hooksInstalled = false;
function killLive(): void {
  for (const pid of live.keys()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', killLive);
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    const onSignal = () => {
      // Another listener (bin/local.ts) owns shutdown and stops the children gracefully.
      if (process.listenerCount(sig) > 1) return;
      process.off(sig, onSignal);
      // A `once` listener that ran just before this one (vitest's) may be exiting already, and
      // 'exit' kills the children then; otherwise kill them and take the signal's default action.
      setTimeout(() => {
        killLive();
        process.kill(process.pid, sig);
      }, 50).unref();
    };
    process.on(sig, onSignal);
  }
}

/**
 * Spawns a child; rejects only when the command itself cannot be started (ENOENT), which callers
 * turn into a message saying what to install.
 */
export function startChild(options: StartChildOptions): Promise<Child> {
  mkdirSync(dirname(options.logFile), { recursive: true });
  mkdirSync(options.cwd, { recursive: true });
  const fd = openSync(options.logFile, 'a');
  const proc = spawn(options.command, [...options.args], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd); // the child holds its own copy

  return new Promise((resolve, reject) => {
    proc.once('error', reject);
    proc.once('spawn', () => {
      proc.off('error', reject);
      const pid = proc.pid;
      if (pid === undefined) {
        reject(new Error(`${options.name}: spawned without a pid`));
        return;
      }
      installHooks();
      live.set(pid, options.name);
      let ended = false;
      const exited = new Promise<ChildExit>((done) => {
        proc.once('exit', (code, signal) => {
          ended = true;
          live.delete(pid);
          done({ code, signal });
        });
      });
      const child: Child = {
        pid,
        name: options.name,
        logFile: options.logFile,
        exited,
        running: () => !ended,
        async stop(graceMs = 5000) {
          if (ended) return;
          signal(pid, 'SIGTERM');
          const timer = setTimeout(() => signal(pid, 'SIGKILL'), graceMs);
          await exited;
          clearTimeout(timer);
        },
        tail: (bytes = 4000) => readTail(options.logFile, bytes),
      };
      resolve(child);
    });
  });
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // exited in the meantime
  }
}

function readTail(file: string, bytes: number): string {
  try {
    const size = statSync(file).size;
    const length = Math.min(size, bytes);
    const buffer = Buffer.alloc(length);
    const fd = openSync(file, 'r');
    try {
      readSync(fd, buffer, 0, length, size - length);
    } finally {
      closeSync(fd);
    }
    return buffer.toString('utf8');
  } catch {
    return '';
  }
}

/**
 * Polls `ready` until it returns true. Gives up early when `child` exits (with its log tail in the
 * error) or after `timeoutMs`.
 */
export async function waitUntilReady(
  what: string,
  ready: () => Promise<boolean>,
  options: { timeoutMs?: number; intervalMs?: number; child?: Child } = {},
): Promise<void> {
  const { timeoutMs = 30_000, intervalMs = 100, child } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && !child.running()) {
      const { code, signal: sig } = await child.exited;
      throw new ChildExitedError(
        `${what} exited before it was ready (code ${code ?? '-'}, signal ${sig ?? '-'}); log ${child.logFile}:\n${child.tail()}`,
        child.tail(),
      );
    }
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline) {
      throw new Error(
        `${what} did not answer within ${timeoutMs} ms` + (child ? `; log ${child.logFile}:\n${child.tail()}` : ''),
      );
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export class ChildExitedError extends Error {
  constructor(
    message: string,
    readonly log: string,
  ) {
    super(message);
    this.name = 'ChildExitedError';
  }
}

/** True once anything answers HTTP at `url`, whatever the status. */
export async function answersHttp(url: string, init?: RequestInit): Promise<boolean> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(1000) });
  await response.body?.cancel();
  return true;
}

/** Whether a process of that id is running (one of another user's too). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
