/**
 * Request validation through @middy/validator, fed the route's compiled validators
 * (shared/http/compiled-validators.ts): nothing is compiled at cold start. Failures become the
 * contract's 422 `{"detail": [{loc, msg, type}]}`.
 *
 * Path and query parameters are validated with type coercion and defaults, the JSON body without
 * coercion (shared/http/request-schemas.ts). A route that declares query parameters refuses
 * unknown ones (a typo such as `limt=5` is a 422, not a silently ignored filter).
 */
import type { MiddlewareObj } from '@middy/core';
import validator from '@middy/validator';
import type { ErrorObject } from 'ajv';
import type { RouteDef } from '../routes/types.js';
import { compiledValidators, type ValidateFunction } from './compiled-validators.js';
import { RequestValidationError, type Loc, type ValidationIssue } from './errors.js';

// @middy/validator's types name an Ajv instance; what it takes and calls is a compiled validate function.
const middyValidator = validator as unknown as (options: { eventSchema: ValidateFunction }) => MiddlewareObj;

/** Middlewares validating `pathParameters`, `queryStringParameters`, `headers` and `body` of the event. */
export function requestValidators(route: RouteDef): MiddlewareObj[] {
  const { params, body } = compiledValidators(route);
  const middlewares: MiddlewareObj[] = [mapErrors(middyValidator({ eventSchema: params }))];
  if (body) middlewares.push(mapErrors(middyValidator({ eventSchema: body })));
  return middlewares;
}

/** Turns @middy/validator's 400 into the contract's 422 with one `loc` per problem. */
function mapErrors(middleware: MiddlewareObj): MiddlewareObj {
  const before = middleware.before;
  if (!before) return middleware;
  return {
    ...middleware,
    before: async (request) => {
      try {
        await before(request);
      } catch (err) {
        const data = (err as { cause?: { package?: string; data?: ErrorObject[] } }).cause;
        if (data?.package === '@middy/validator' && Array.isArray(data.data)) {
          throw new RequestValidationError(toIssues(data.data));
        }
        throw err;
      }
    },
  };
}

const PART: Record<string, Loc[0]> = {
  headers: 'header',
  pathParameters: 'path',
  queryStringParameters: 'query',
  body: 'body',
};

export function toIssues(errors: ErrorObject[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    // `if`/`then` and `anyOf` wrappers repeat what their branches already said.
    if (e.keyword === 'if' || e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    const segments = e.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    let [part, ...rest] = segments;
    if (part === undefined) {
      // The whole body missing shows up as a `required` error at the root.
      part = (e.params as { missingProperty?: string }).missingProperty ?? 'body';
    } else if (e.keyword === 'required') {
      rest.push((e.params as { missingProperty: string }).missingProperty);
    } else if (e.keyword === 'additionalProperties') {
      rest.push((e.params as { additionalProperty: string }).additionalProperty);
    }
    const loc: Loc = [PART[String(part)] ?? 'body', ...rest];
    const { msg, type } = describe(e, rest.length === 0 && e.keyword === 'required');
    const key = `${loc.join('\u0000')}|${type}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ loc, msg, type });
  }
  return issues;
}

function describe(e: ErrorObject, wholePartMissing: boolean): { msg: string; type: string } {
  switch (e.keyword) {
    case 'required':
      return { msg: wholePartMissing ? 'a JSON body is required' : 'field required', type: 'missing' };
    case 'additionalProperties':
      return { msg: 'unknown field', type: 'extra_forbidden' };
    case 'minProperties':
      return { msg: 'at least one field is required', type: 'too_short' };
    case 'format':
      return { msg: `must be a valid ${(e.params as { format: string }).format}`, type: `${(e.params as { format: string }).format}_format` };
    case 'enum':
      return {
        msg: `must be one of: ${((e.params as { allowedValues: unknown[] }).allowedValues ?? []).join(', ')}`,
        type: 'enum',
      };
    default:
      return { msg: e.message ?? 'invalid value', type: e.keyword };
  }
}
