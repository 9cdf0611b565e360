/**
 * The local runtime's validator compiler: the local server and the tests run handlers straight
 * from source, where no build has generated standalone validators, so each route's schemas are
 * compiled once, when its handler module loads, with the Ajv the build uses (shared/http/ajv.ts),
 * one instance per coercion mode for all of them.
 */
import { sharedRequestAjv } from '../http/ajv.js';
import { useValidatorCompiler, type CompiledValidators } from '../http/compiled-validators.js';
import { requestSchemas } from '../http/request-schemas.js';
import { unionBranchLabels } from '../http/union-branches.js';
import type { RouteDef } from '../routes/types.js';

export function compileRequestValidators(route: RouteDef): CompiledValidators {
  const { params, body } = requestSchemas(route);
  return {
    params: sharedRequestAjv(params.coerceTypes).compile(params.schema),
    ...(body ? { body: sharedRequestAjv(body.coerceTypes).compile(body.schema) } : {}),
    unions: { params: unionBranchLabels(params.schema), ...(body ? { body: unionBranchLabels(body.schema) } : {}) },
  };
}

export function installValidatorCompiler(): void {
  useValidatorCompiler(compileRequestValidators);
}
