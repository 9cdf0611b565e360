/**
 * Request validation against a route's JSON Schemas, through @middy/validator. The schemas are
 * compiled once per cold start (when the handler module loads), never per request.
 *
 * Path and query parameters arrive as strings, so they are validated with type coercion
 * (`limit=5` becomes 5) and defaults filled in; the JSON body is validated without coercion, so
 * `"limit": "5"` in a body stays an error. A route that declares query parameters refuses unknown
 * ones (a typo such as `limt=5` is a 422, not a silently ignored filter).
 */
import type { MiddlewareObj } from '@middy/core';
import validator from '@middy/validator';
import { transpileSchema } from '@middy/validator/transpile';
import type { ErrorObject } from 'ajv';
import type { RouteDef } from '../routes/types.js';
import type { JsonSchema } from '../schemas/json-schema.js';
import { RequestValidationError, type Loc, type ValidationIssue } from './errors.js';

// strictTuples off: a GeoJSON position is [lon, lat] with an optional altitude.
export const AJV_OPTIONS = { allowUnionTypes: true, strict: true, strictTuples: false } as const;

/** A route that takes no path or query parameters ignores any it is sent (a cache-buster on /docs). */
const NO_PARAMETERS = { type: 'object' } as const;

/** Middlewares validating `pathParameters`, `queryStringParameters` and `body` of the event. */
export function requestValidators(route: RouteDef): MiddlewareObj[] {
  const { path, query, body, headers } = route.request ?? {};
  const params: JsonSchema = {
    type: 'object',
    properties: {
      pathParameters: path ?? NO_PARAMETERS,
      queryStringParameters: query ?? NO_PARAMETERS,
      // Headers arrive lower-cased (header normaliser); only the declared ones are checked.
      headers: headers ?? NO_PARAMETERS,
    },
  };
  const middlewares: MiddlewareObj[] = [
    mapErrors(validator({ eventSchema: transpileSchema(params, { ...AJV_OPTIONS, coerceTypes: 'array' }) })),
  ];
  if (body) {
    const bodySchema: JsonSchema = { type: 'object', properties: { body }, required: ['body'] };
    middlewares.push(
      mapErrors(validator({ eventSchema: transpileSchema(bodySchema, { ...AJV_OPTIONS, coerceTypes: false }) })),
    );
  }
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
