/**
 * `npm start` (bin/local.ts) as a child process with its own data directory and a free port, for
 * tests that must own the whole runtime: kill its database, read its logs. Its output is kept.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';
import { stopChild } from './child-stop.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

export interface NpmStart {
  url: string;
  dataDir: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Stops it; its data directory is removed unless `keepData` (a restart on it follows). */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/** Starts `npm start` on a new data directory, or on `dataDir` (one a stopped run kept). */
export async function npmStart(
  env: Record<string, string> = {},
  dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-npm-start-')),
): Promise<NpmStart> {
  // A clean environment: none of the test run's stack variables, its own data and a free port.
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    GATEHOUSE_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...env,
  };
  for (const name of Object.keys(inject('localEnv'))) if (!(name in env)) delete childEnv[name];
  // Its log lines on its own output (the test reads them), not in the test run's log file.
  if (!('LOG_FILE' in env)) delete childEnv.LOG_FILE;
  const child: ChildProcess = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), ['bin/local.ts'], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  const stop = async (options: { keepData?: boolean } = {}) => {
    await stopChild(child);
    if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((done, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`npm start did not listen within 90 s:\n${output.slice(-3000)}`)),
        90_000,
      );
      const look = () => {
        const found = /listening on (http:\/\/\S+)/.exec(output)?.[1];
        if (found) {
          clearTimeout(timer);
          done(found);
        }
      };
      child.stdout!.on('data', look);
      child.once('exit', (code) => fail(new Error(`npm start ended (${code}):\n${output.slice(-3000)}`)));
    });
    return { url, dataDir, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
