/**
 * vitest setupFiles of the `unit` project: pure tests, no local stack. The project has no
 * globalSetup, so nothing provides `baseUrl` or `localEnv`; a test (or a support module such as
 * test/support/api.ts) that asks for one fails at once with the reason, instead of calling
 * `new URL(path, undefined)` or reading a file named "undefined" somewhere later.
 *
 * `inject` reads the worker state's provided context (vitest 5); the two keys become getters
 * that throw.
 */
import { providedContext } from './provided-context.js';

const STACK_KEYS = ['baseUrl', 'localEnv'] as const;

const provided = providedContext('test/support/unit-guard.ts');
for (const key of STACK_KEYS) {
  Object.defineProperty(provided, key, {
    configurable: true,
    get() {
      throw new Error(
        `inject('${key}') in the unit project: unit tests run without the local stack (vitest.config.ts). ` +
          'A test that needs the local server or DynamoDB Local belongs in the stack or e2e project.',
      );
    },
  });
}
