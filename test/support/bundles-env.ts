/**
 * vitest setupFiles of the `bundles` project, after fresh-file.ts: its files run against a stack of
 * their own (global-setup.ts, `stackOf`), whose variables the workers did not inherit from the
 * main process (which holds the sources' stack's). That stack starts beside the tests
 * (global-setup.ts, `startBeside`): here each file waits until it listens, then gets its address
 * and variables through `inject('baseUrl')` and `inject('localEnv')` as the other projects' files
 * do, and in the environment before anything reads shared/config.ts, with the form that answers
 * (platform.test.ts asks /health for it).
 */
import { existsSync, readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { providedContext } from './provided-context.js';

/** A bound on the wait, for a stack that hangs: a fresh clone's synthesis takes 20-60 s. */
const START_BOUND_MS = 300_000;

interface Started {
  baseUrl: string;
  localEnv: Record<string, string>;
}

async function stackListening(file: string): Promise<Started> {
  const end = Date.now() + START_BOUND_MS;
  while (!existsSync(file)) {
    if (Date.now() > end) throw new Error(`the bundles' stack did not listen within ${START_BOUND_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const written = JSON.parse(readFileSync(file, 'utf8')) as Started | { error: string };
  if ('error' in written) throw new Error(`the bundles' stack did not start: ${written.error}`);
  return written;
}

const file = inject('stackFile');
// Without a file, the run serves every project from the bundles (GATEHOUSE_HANDLERS=bundles), on
// the one stack started before the tests.
const stack = file ? await stackListening(file) : { baseUrl: inject('baseUrl'), localEnv: inject('localEnv') };
Object.assign(providedContext('test/support/bundles-env.ts'), stack);
Object.assign(process.env, stack.localEnv, { GATEHOUSE_HANDLERS: 'bundles' });
delete process.env.AWS_SESSION_TOKEN;
delete process.env.AWS_PROFILE;
process.env.OUTBOUND_ALLOW_LOOPBACK = 'true';
