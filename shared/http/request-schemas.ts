/**
 * What a route's request is validated against, and how: one schema over the event's path, query
 * and header parameters (they arrive as strings, so they are coerced: `limit=5` becomes 5, and
 * defaults are filled in), and one over the JSON body (not coerced: `"limit": "5"` in a body
 * stays an error). Pure data: the build compiles these into standalone code for each function
 * (lib/validators.ts) and the local runtime compiles them at start (shared/local/validators.ts),
 * with the same Ajv options, so both validate alike.
 */
import type { RouteDef } from '../routes/types.js';
import type { JsonSchema } from '../schemas/json-schema.js';

/** Ajv options every request validator is compiled with (JSON Schema 2020-12, as OpenAPI 3.1). */
export const AJV_OPTIONS = {
  strict: true,
  allowUnionTypes: true,
  // A union (`oneOf`) names its tag (`discriminator`): only the branch of the tag is checked.
  discriminator: true,
  // A GeoJSON position is [lon, lat] with an optional altitude.
  strictTuples: false,
  // Every problem at once, one `loc` each.
  allErrors: true,
  useDefaults: 'empty',
  messages: true,
} as const;

export interface RequestSchema {
  schema: JsonSchema;
  coerceTypes: 'array' | false;
}

export interface RequestSchemas {
  /** Over the event: `pathParameters`, `queryStringParameters`, `headers`. */
  params: RequestSchema;
  /** Over `{ body }`, when the route takes a JSON body. */
  body?: RequestSchema;
}

/** A route that takes no path or query parameters ignores any it is sent (a cache-buster on /docs). */
const NO_PARAMETERS = { type: 'object' } as const;

export function requestSchemas(route: Pick<RouteDef, 'request'>): RequestSchemas {
  const { path, query, body, headers } = route.request ?? {};
  const params: RequestSchema = {
    schema: {
      type: 'object',
      properties: {
        pathParameters: path ?? NO_PARAMETERS,
        queryStringParameters: query ?? NO_PARAMETERS,
        // Headers arrive lower-cased (header normaliser); only the declared ones are checked.
        headers: headers ?? NO_PARAMETERS,
      },
    },
    coerceTypes: 'array',
  };
  if (!body) return { params };
  return { params, body: { schema: { type: 'object', properties: { body }, required: ['body'] }, coerceTypes: false } };
}

/**
 * Whether a body may be left out: an object whose every field is optional (no `required`, no
 * minimum of properties, no combinator that could demand one). Such a request may send no body
 * at all and is read as `{}` (the contract: no empty-body ceremony).
 */
export function bodyIsOptional(body: JsonSchema | undefined): boolean {
  if (!body || body.type !== 'object') return false;
  const required = body.required as readonly unknown[] | undefined;
  return (
    !(required && required.length > 0) &&
    body.minProperties === undefined &&
    !body.anyOf &&
    !body.oneOf &&
    !body.allOf &&
    !body.if
  );
}
