import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One local stack (DynamoDB Local, s3rver, cognito-local) and the local HTTP server for the
    // whole run; see test/support/global-setup.ts.
    globalSetup: ['test/support/global-setup.ts'],
    // What Lambda and the bundles give a handler (awslambda, compiled validators), for tests that import one.
    setupFiles: ['test/support/local-runtime.ts'],
    testTimeout: 20_000,
    // Starting a JVM (DynamoDB Local) inside a hook takes seconds on a small machine.
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    // Two cores: the JVM, cognito-local and the handlers (in the main process) share them with
    // the workers, so two worker processes at most.
    pool: 'forks',
    maxWorkers: 2,
  },
});
