/**
 * The README's first hour, walked by a script as a new user would: `npm run walkthrough`.
 *
 * By default it makes a fresh clone of this repository's HEAD in a temp dir, runs `npm ci` there,
 * starts `npm start` on a free port with its own data, and walks the API and the acknowledgement
 * page in headless Chromium (Debian's `chromium`, or CHROMIUM_PATH), printing each step.
 * `--here` skips the clone and runs this checkout; `--base <url> --notifications <file>` walks a
 * service that is already running. Exits 1 at the first step that fails.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { walkthrough } from './walkthrough-steps.js';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

async function startService(dir: string, dataDir: string): Promise<{ child: ChildProcess; base: string }> {
  // As `npm start` runs it (bin/local.ts in one process, so a signal reaches it).
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
    cwd: dir,
    env: { ...process.env, PORT: '0', GATEHOUSE_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const base = await new Promise<string>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`npm start did not listen within 120 s:\n${output.slice(-2000)}`)),
      120_000,
    );
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
      const found = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (found) {
        clearTimeout(timer);
        done(found);
      }
    });
    child.once('exit', (code) => fail(new Error(`npm start ended (${code}):\n${output.slice(-2000)}`)));
  });
  return { child, base };
}

async function main(): Promise<void> {
  const say = (line: string) => console.log(`- ${line}`);
  const cleanup: (() => void | Promise<void>)[] = [];
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox'],
  });
  cleanup.push(() => browser.close());
  try {
    let base = flag('--base');
    let notificationsFile = flag('--notifications');
    if (!base) {
      let dir = ROOT;
      if (!args.includes('--here')) {
        dir = mkdtempSync(join(tmpdir(), 'gatehouse-clone-'));
        cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
        say(`git clone ${ROOT} ${dir}`);
        execFileSync('git', ['clone', '--quiet', ROOT, dir]);
        say('npm ci');
        execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
      }
      const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-walk-data-'));
      const service = await startService(dir, dataDir);
      cleanup.unshift(async () => {
        const ended = new Promise((r) => service.child.once('exit', r));
        service.child.kill('SIGTERM');
        await ended;
        rmSync(dataDir, { recursive: true, force: true });
      });
      base = service.base;
      notificationsFile = join(dataDir, 'logs', 'notifications.jsonl');
      say(`npm start: ${base}`);
    }
    if (!notificationsFile) throw new Error('--base needs --notifications <data dir>/logs/notifications.jsonl');
    const result = await walkthrough({ base, notificationsFile, browser, say });
    if (result.finalStatus !== 'acknowledged')
      throw new Error(`the incident ended ${result.finalStatus}, not acknowledged`);
    say('done: the incident was acknowledged through its link');
  } finally {
    for (const step of cleanup) await step();
  }
}

main().catch((err: unknown) => {
  console.error(`walkthrough failed: ${(err as Error).message}`);
  process.exit(1);
});
