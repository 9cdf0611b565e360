/**
 * Where the local runtime is composed: what a deployed function gets from its bundle or from
 * Lambda, the local runtime installs here, before any handler module loads. Idempotent. Called by
 * the local server, the worker loader and the test run's setup file.
 *
 * - the Lambda runtime's global `awslambda` (streaming handlers call it when they load);
 * - a compiler for request validators (bundles carry them precompiled: lib/validators.ts).
 */
import { installAwslambdaShim } from './awslambda-shim.js';
import { installValidatorCompiler } from './validators.js';

export function composeLocalRuntime(): void {
  installAwslambdaShim();
  installValidatorCompiler();
}
