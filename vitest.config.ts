import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './test/support/sequencer.js';

// Quiet by default: the service's log lines (requests, the bus, the local stand-ins) go to a file,
// so a passing run prints its summary only. TEST_LOGS=stdout prints them as they come.
if (!process.env.LOG_FILE && process.env.TEST_LOGS !== 'stdout') {
  const logFile = resolve('.test-logs/test-run.jsonl');
  mkdirSync(dirname(logFile), { recursive: true });
  writeFileSync(logFile, '');
  process.env.LOG_FILE = logFile;
}

// /health's bound on each dependency (shared/config.ts): the stack's DynamoDB Local shares two cores
// with the whole suite, and a DescribeTable took over the 2 s a deployed stage allows. Set here, in
// the main process, so the stack processes it starts (test/support/global-setup.ts) inherit it.
process.env.HEALTH_CHECK_SECONDS ??= '10';

/**
 * Unit files that need the local stack (DynamoDB Local, the server): they run in the `stack` project.
 * Everything else under test/unit is pure and runs in `unit`, where no service starts.
 */
const UNIT_NEEDING_STACK: string[] = [];

/** The isolation suite's generator and coverage checks are pure (plans from the route table, no server). */
const PURE_ISOLATION = ['test/isolation/generator.test.ts', 'test/isolation/coverage.test.ts'];

/**
 * The unit project's environment: the shape of the local stack's (shared/local/stack.ts), so
 * shared/config.ts loads and picks the same modes (local bus, speech, AI, lake) as under the
 * stack, but every endpoint is a closed port: a unit test that reaches for DynamoDB, S3 or
 * Cognito fails at once with ECONNREFUSED instead of passing by luck on a running stack.
 */
const NOWHERE = 'http://127.0.0.1:9';
const UNIT_ENV: Record<string, string> = {
  GATEHOUSE_STAGE: 'local',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'unit',
  AWS_SECRET_ACCESS_KEY: 'unit',
  TABLE_NAME: 'gatehouse-unit',
  BUCKET_NAME: 'gatehouse-unit',
  EVENT_BUS_NAME: 'gatehouse-unit',
  EVENT_BUS_MODE: 'local',
  USER_POOL_ID: 'us-east-1_unit',
  USER_POOL_CLIENT_ID: 'unit-client',
  OUTBOUND_ALLOW_LOOPBACK: 'true',
  DYNAMODB_ENDPOINT: NOWHERE,
  S3_ENDPOINT: NOWHERE,
  COGNITO_ENDPOINT: NOWHERE,
  AWS_ENDPOINT_URL_DYNAMODB: NOWHERE,
  AWS_ENDPOINT_URL_S3: NOWHERE,
  AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: NOWHERE,
};

/** One local stack for the `stack` and `e2e` projects together: see test/support/global-setup.ts. */
const STACK_SETUP = 'test/support/global-setup.ts';

/** What Lambda and the bundles give a handler (awslambda, compiled validators), for tests that import one. */
const RUNTIME_SETUP = 'test/support/local-runtime.ts';

/** First in every project: each file starts as in a process of its own, in a reused worker. */
const FRESH_FILE = 'test/support/fresh-file.ts';

/**
 * The `bundles` project: the README's walk, the platform's health, the MCP e2e, the traces and the
 * isolation suite, served by the bundles `cdk synth` builds (routes and workers), on a stack of
 * their own (global-setup.ts): a bundle that loads but does not answer, or answers another
 * tenant, fails `npm test`. Every route still answers from the sources in the other e2e files.
 */
const FROM_BUNDLES = [
  'test/e2e/platform.test.ts',
  'test/e2e/walkthrough.test.ts',
  'test/e2e/mcp.test.ts',
  'test/e2e/traces.test.ts',
  'test/isolation/**/*.test.ts',
];

/**
 * A test against the local stack shares two cores with the JVM, the server and three other files:
 * under that load a test that takes 5 s alone took over 20 s (the data lake's, restarting DynamoDB
 * Local). The bound is for a test that hangs, not a speed; speed is measured by the benchmarks. It
 * is above the background pipeline's (test/support/pipeline.ts), so a wait that runs out fails
 * with its own message.
 */
const STACK_TEST_TIMEOUT = 90_000;

export default defineConfig({
  test: {
    // Projects inherit these (vitest 5: inline projects extend the root config). The root has no
    // globalSetup on purpose: vitest runs the root project's globalSetup for any project run, and
    // `npm run test:unit` must start nothing.
    testTimeout: 20_000,
    // A test is listed by name when it fails, not for being slow (the local stack makes many slow).
    slowTestThreshold: 120_000,
    // Starting a JVM (DynamoDB Local) inside a hook takes seconds on a small machine.
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    pool: 'forks',
    // A worker process runs one file after another of its project, where each file had a process of
    // its own: starting Node and importing the AWS SDK, CDK and the rest of node_modules took
    // about 1.3 CPU seconds a file, 200 files a run. Each file still starts fresh
    // (test/support/fresh-file.ts, the first setup file of every project): the repository's
    // modules are evaluated again for it, and the environment is put back as the worker began.
    isolate: false,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', ...PURE_ISOLATION],
          exclude: UNIT_NEEDING_STACK,
          // Pure tests: no local stack, and a test that asks for one fails loudly (unit-guard.ts).
          setupFiles: [FRESH_FILE, RUNTIME_SETUP, 'test/support/unit-guard.ts'],
          env: UNIT_ENV,
        },
      },
      {
        test: {
          name: 'stack',
          include: ['test/integration/**/*.test.ts', 'test/infra/**/*.test.ts', ...UNIT_NEEDING_STACK],
          setupFiles: [FRESH_FILE, RUNTIME_SETUP],
          globalSetup: [STACK_SETUP],
          testTimeout: STACK_TEST_TIMEOUT,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          exclude: FROM_BUNDLES,
          setupFiles: [FRESH_FILE, RUNTIME_SETUP],
          globalSetup: [STACK_SETUP],
          testTimeout: STACK_TEST_TIMEOUT,
        },
      },
      {
        test: {
          name: 'bundles',
          include: FROM_BUNDLES,
          exclude: PURE_ISOLATION,
          // A fresh start, its stack's variables (bundles-env.ts), then what Lambda gives a handler.
          setupFiles: [FRESH_FILE, 'test/support/bundles-env.ts', RUNTIME_SETUP],
          globalSetup: [STACK_SETUP],
          testTimeout: STACK_TEST_TIMEOUT,
        },
      },
    ],
    // Four worker processes (TEST_WORKERS overrides it). The long files mostly wait (leases running
    // out, a stopped worker's queue, npm start) and each holds a slot, so the two cores were 1.2-1.5
    // busy with three. One checkout, 2026-11-30, back to back, from the first file's start to the
    // last one's end: 358 s with three, 318 s with four, 333 s with six. On a slower day
    // (2026-11-29) four took 637 s against three's 655 s: no loss where the CPU is what runs out.
    maxWorkers: Number(process.env.TEST_WORKERS ?? 4),
    // Longest first, across the projects (test/support/sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
  },
});
