/**
 * Outside Lambda (`npm start`, the tests, the scripts) the Tracer is not loaded at all: the X-Ray
 * SDK it loads switches on an async hook that runs at every promise of the process. In Lambda
 * (AWS_EXECUTION_ENV set) it is; test/e2e/traces.test.ts checks what it then records.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/function.js';

/** Whether importing shared/tracing.ts in a fresh process with `env` loads the X-Ray SDK. */
function loadsXray(env: Record<string, string | undefined>): boolean {
  const script = [
    "import { createRequire } from 'node:module';",
    "const { tracedClient } = await import('./shared/tracing.ts');",
    'const client = { send: () => 1 };',
    // Off, a client is handed back as it was given.
    "if (!process.env.AWS_EXECUTION_ENV && tracedClient(client) !== client) throw new Error('wrapped');",
    "const loaded = Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('aws-xray-sdk-core'));",
    'console.log(JSON.stringify(loaded));',
  ].join('\n');
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, AWS_EXECUTION_ENV: undefined, POWERTOOLS_TRACE_ENABLED: undefined, ...env },
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as boolean;
}

describe('the Tracer', () => {
  it('is not loaded outside Lambda, nor in Lambda with tracing turned off', () => {
    expect(loadsXray({})).toBe(false);
    expect(loadsXray({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x', POWERTOOLS_TRACE_ENABLED: 'false' })).toBe(false);
  });

  it('is loaded in Lambda', () => {
    expect(loadsXray({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x' })).toBe(true);
  });
});
