/**
 * vitest globalSetup: one local stack for the whole test run, in memory (temp data under the OS
 * temp dir), the bootstrap administrator, and the local HTTP server on a free port serving every
 * route through the real handlers, all in a child process (stack-process.ts); the `bundles`
 * project has one of its own. Everything is stopped by PID at teardown.
 *
 * Tests get the base URL with `inject('baseUrl')` and the stack's variables with
 * `inject('localEnv')`; the variables are also in `process.env` before the workers start, so code
 * under test that reads shared/config.ts (TABLE_NAME, ...) finds them.
 */
import { spawn } from 'node:child_process';
import * as nodeModule from 'node:module';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TestProject } from 'vitest/node';
import { stopChild } from './child-stop.js';
import { enforceItemSizes, ITEM_SIZES_FILE_ENV, readItemSizeReport, type ItemSizeReport } from './item-size-check.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The local server, e.g. http://127.0.0.1:41234 (no trailing slash). */
    baseUrl: string;
    /** What the handlers read from the env: TABLE_NAME, USER_POOL_ID, DYNAMODB_ENDPOINT, ... */
    localEnv: Record<string, string>;
    /**
     * The `bundles` project's only: the file its stack's `baseUrl` and `localEnv` are written to
     * once it listens (startBeside); bundles-env.ts waits for it and provides them.
     */
    stackFile?: string;
  }
}

/** What one start gives every project that shares it. */
interface Shared {
  baseUrl: string;
  localEnv: Record<string, string>;
  users: number;
  /** Stops everything; the item-size check's report (item-size-check.ts) when it was on. */
  stop: () => Promise<ItemSizeReport | undefined>;
}

/**
 * vitest runs the globalSetup of each project that lists it, in its main process: the `stack` and
 * `e2e` projects both do (vitest.config.ts). The first start is kept on `globalThis` (shared even
 * if vitest loads this module once per project) and counted, so a full run starts the stack once
 * and stops it after the last project's teardown.
 */
const KEY = Symbol.for('gatehouse.test.localStack');
/** The `bundles` project's own stack (stackOf). */
const BUNDLES_KEY = Symbol.for('gatehouse.test.localStack.bundles');
type Holder = Record<symbol, Promise<Shared> | undefined>;

/**
 * How a stack process runs the TypeScript: on Node's own support where this Node has it
 * (./ts-resolve.mjs says why; about 12 CPU s less for the bundles' stack), otherwise through tsx.
 */
function typeScriptRunner(root: string): string[] {
  if (typeof nodeModule.registerHooks !== 'function') return ['--import', 'tsx'];
  return [
    '--experimental-transform-types',
    '--disable-warning=ExperimentalWarning',
    '--import',
    pathToFileURL(join(root, 'test', 'support', 'ts-resolve.mjs')).href,
  ];
}

/**
 * A stack and its server in a process of their own (stack-process.ts), on Node's own TypeScript
 * support: the handlers run as Node's ES modules, where in vitest's main process (the default until
 * 2026-11-30) Vite's module runner evaluated them and their requests shared the main event loop
 * with vitest's bookkeeping. Measured on the `stack` and `e2e` projects, two pairs of runs back to
 * back: 268 s and 250 s in the main process, 253 s and 241 s in a child; all processes' CPU 440
 * and 412 s against 411 and 386. The stack's variables are copied into this process (unless it
 * has an env of its own, `ownEnv`), so the workers vitest forks inherit them.
 */
async function startChild(options: { bundles: boolean; ownEnv: boolean }): Promise<Shared> {
  const root = resolve(import.meta.dirname, '..', '..');
  const reportDir = mkdtempSync(join(tmpdir(), 'gatehouse-item-sizes-'));
  const reportFile = join(reportDir, 'report.json');
  const child = spawn(process.execPath, [...typeScriptRunner(root), 'test/support/stack-process.ts'], {
    cwd: root,
    env: {
      ...process.env,
      [ITEM_SIZES_FILE_ENV]: reportFile,
      ...(options.bundles ? { GATEHOUSE_HANDLERS: 'bundles' } : {}),
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const stop = async () => {
    await stopChild(child);
    const report = readItemSizeReport(reportFile);
    rmSync(reportDir, { recursive: true, force: true });
    return report;
  };
  const ready = await new Promise<{ baseUrl: string; localEnv: Record<string, string> }>((done, fail) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.startsWith('gatehouse-test-stack '));
      if (line)
        done(
          JSON.parse(line.slice('gatehouse-test-stack '.length)) as {
            baseUrl: string;
            localEnv: Record<string, string>;
          },
        );
    });
    child.once('exit', (code) => fail(new Error(`the test stack process ended (${code}) before it listened`)));
  });
  // A stack of its own (the `bundles` project's beside the sources' stack): its files take its
  // variables from `inject('localEnv')` (bundles-env.ts), and this process keeps the other's.
  if (!options.ownEnv) {
    Object.assign(process.env, ready.localEnv);
    delete process.env.AWS_SESSION_TOKEN;
    delete process.env.AWS_PROFILE;
    process.env.OUTBOUND_ALLOW_LOOPBACK = 'true';
  }
  return { ...ready, users: 0, stop };
}

/**
 * Which stack a project runs against. The `bundles` project has its own, in a child process
 * serving the bundles cdk synth builds (routes and workers), beside the other projects' stack from
 * the sources: one `npm test` runs the walk, the MCP e2e and the isolation suite once, in the form
 * that deploys, where CI ran them again after it. GATEHOUSE_HANDLERS=bundles serves every project
 * from one stack of bundles, as before.
 */
function stackOf(project: TestProject): { key: symbol; start: () => Promise<Shared> } {
  if (process.env.GATEHOUSE_HANDLERS === 'bundles')
    return { key: KEY, start: () => startChild({ bundles: true, ownEnv: false }) };
  if (project.name === 'bundles') return { key: BUNDLES_KEY, start: () => startChild({ bundles: true, ownEnv: true }) };
  return { key: KEY, start: () => startChild({ bundles: false, ownEnv: false }) };
}

/**
 * The `bundles` project's stack, started beside the tests rather than before them: vitest runs the
 * projects' global setups one after the other and starts no file until all are done, and this
 * stack takes 20-40 s (synthesizing the bundles, most of it) where the sources' takes 3. Its setup
 * returns at once with the file the stack's address and variables go to once it listens (or why it
 * did not start); each of the project's files waits for it (bundles-env.ts), the others run.
 */
function startBeside(project: TestProject, start: () => Promise<Shared>): () => Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bundles-stack-'));
  const file = join(dir, 'stack.json');
  const write = (value: object) => {
    writeFileSync(`${file}.part`, JSON.stringify(value));
    renameSync(`${file}.part`, file);
  };
  const started = start();
  started
    .then(
      ({ baseUrl, localEnv }) => write({ baseUrl, localEnv }),
      (error: unknown) => write({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    )
    // The project's files then wait out their bound (bundles-env.ts) and fail; this says why.
    .catch((error: unknown) => console.error(`the bundles' stack file could not be written: ${String(error)}`));
  project.provide('stackFile', file);
  return async () => {
    const shared = await started.catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    // The run fails here when a test wrote an item over 64 KB (item-size-check.ts).
    if (shared) enforceItemSizes(await shared.stop());
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const holder = globalThis as Holder;
  // The bundles run in a child, a plain Node process as in Lambda: in this one Vite would load
  // them (rewriting their imports and warning about their dependencies' source maps).
  const { key, start: startStack } = stackOf(project);
  if (key === BUNDLES_KEY) return startBeside(project, startStack);
  const first = !holder[key];
  holder[key] ??= startStack();
  let shared: Shared;
  try {
    shared = await holder[key];
  } catch (error) {
    if (first) delete holder[key];
    throw error;
  }
  shared.users += 1;
  project.provide('baseUrl', shared.baseUrl);
  project.provide('localEnv', shared.localEnv);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete holder[key];
    // The run fails here when a test wrote an item over 64 KB (item-size-check.ts).
    enforceItemSizes(await shared.stop());
  };
}
