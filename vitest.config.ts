import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// Quiet by default: the service's log lines (requests, the bus, the local stand-ins) go to a file,
// so a passing run prints its summary only. TEST_LOGS=stdout prints them as they come.
if (!process.env.LOG_FILE && process.env.TEST_LOGS !== 'stdout') {
  const logFile = resolve('.test-logs/test-run.jsonl');
  mkdirSync(dirname(logFile), { recursive: true });
  writeFileSync(logFile, '');
  process.env.LOG_FILE = logFile;
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One local stack (DynamoDB Local, s3rver, cognito-local) and the local HTTP server for the
    // whole run; see test/support/global-setup.ts.
    globalSetup: ['test/support/global-setup.ts'],
    // What Lambda and the bundles give a handler (awslambda, compiled validators), for tests that import one.
    setupFiles: ['test/support/local-runtime.ts'],
    testTimeout: 20_000,
    // A test is listed by name when it fails, not for being slow (the local stack makes many slow).
    slowTestThreshold: 120_000,
    // Starting a JVM (DynamoDB Local) inside a hook takes seconds on a small machine.
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    // Two cores: the JVM, cognito-local and the handlers (in the main process) share them with
    // the workers, so two worker processes at most.
    pool: 'forks',
    maxWorkers: 2,
    // Each file in a fresh module registry: files swap adapters (speech, AI) and set module state.
    // Said explicitly, so vitest does not suggest otherwise after every run.
    isolate: true,
  },
});
