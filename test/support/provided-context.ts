/**
 * The values `inject()` reads in a test worker: vitest 5 keeps them on the worker state's
 * `providedContext`. unit-guard.ts makes the stack's keys throw in the unit project; bundles-env.ts
 * sets them once the `bundles` project's stack, started beside the tests, listens.
 */
export function providedContext(from: string): Record<string, unknown> {
  const state = (globalThis as { __vitest_worker__?: { providedContext?: Record<string, unknown> } }).__vitest_worker__;
  const provided = state?.providedContext;
  if (!provided) throw new Error(`${from}: vitest worker state not found (did vitest change how inject works?)`);
  return provided;
}
