/**
 * The compiled request validators of the routes this process serves. No schema is compiled here:
 *
 * - a deployed function's bundle carries its route's validators as standalone code, generated
 *   when the bundle is built (lib/validators.ts) and installed by a module esbuild runs before the
 *   handler (`inject`), so a cold start compiles nothing;
 * - the local runtime and the tests install a compiler instead (shared/local/validators.ts).
 *
 * The handler chain asks for its route's validators when its module loads.
 */
import type { RouteDef } from '../routes/types.js';

/** An Ajv validate function: true when valid, else false with `errors` set. */
export interface ValidateFunction {
  (data: unknown): boolean;
  errors?: unknown[] | null;
}

export interface CompiledValidators {
  params: ValidateFunction;
  body?: ValidateFunction;
  /** The tagged unions' branches of each part, by schema path (shared/http/union-branches.ts), for the 422's words. */
  unions?: { params?: Record<string, string>; body?: Record<string, string> };
}

export type ValidatorCompiler = (route: RouteDef) => CompiledValidators;

const installed = new Map<string, CompiledValidators>();
let compiler: ValidatorCompiler | undefined;

/** Standalone validators of one route, built with the bundle. */
export function installCompiledValidators(routeId: string, validators: CompiledValidators): void {
  installed.set(routeId, validators);
}

/** Compiles validators on demand (local runtime, tests). */
export function useValidatorCompiler(compile: ValidatorCompiler): void {
  compiler = compile;
}

export function compiledValidators(route: RouteDef): CompiledValidators {
  const validators = installed.get(route.id) ?? compiler?.(route);
  if (!validators) {
    throw new Error(`route ${route.id}: no compiled request validators; the bundle must be built by lib/function.ts`);
  }
  // A route with a body must have a body validator, and one without must not.
  if (Boolean(validators.body) !== Boolean(route.request?.body)) {
    throw new Error(`route ${route.id}: its compiled validators do not match its schemas`);
  }
  return validators;
}
