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
import { unsafeParameterIssues } from './unsafe-input.js';

// @middy/validator's types name an Ajv instance; what it takes and calls is a compiled validate function.
const middyValidator = validator as unknown as (options: { eventSchema: ValidateFunction }) => MiddlewareObj;

/** Middlewares validating `pathParameters`, `queryStringParameters`, `headers` and `body` of the event. */
export function requestValidators(route: RouteDef): MiddlewareObj[] {
  const { params, body, unions } = compiledValidators(route);
  const middlewares: MiddlewareObj[] = [
    rawParameters(route),
    mapErrors(middyValidator({ eventSchema: params }), unions?.params),
  ];
  if (body) middlewares.push(mapErrors(middyValidator({ eventSchema: body }), unions?.body));
  return middlewares;
}

const DECIMAL_INTEGER = /^-?(0|[1-9][0-9]*)$/;
const DECIMAL_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/** The parameters of one part declared as numbers: name -> integer or not. */
function numberParameters(schema: unknown): [string, boolean][] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties ?? {};
  return Object.entries(properties).flatMap(([name, p]) => {
    const types = Array.isArray(p.type) ? p.type : [p.type];
    if (types.includes('integer')) return [[name, true] as [string, boolean]];
    if (types.includes('number')) return [[name, false] as [string, boolean]];
    return [];
  });
}

/**
 * Checks of the raw parameter strings, before Ajv's coercion reads them. Numbers in the path,
 * query and headers are decimal, finite and exact, as the contract says: coercion would take
 * `0x10` as 16, ` 5` as 5, `Infinity` and `1e309` as Infinity, and `9007199254740993` as a
 * neighbour. Path and query values hold no NUL and no unpaired surrogate (shared/http/unsafe-input.ts).
 */
function rawParameters(route: RouteDef): MiddlewareObj {
  const { path, query, headers } = route.request ?? {};
  const parts = (
    [
      ['pathParameters', 'path', numberParameters(path)],
      ['queryStringParameters', 'query', numberParameters(query)],
      ['headers', 'header', numberParameters(headers)],
    ] as const
  ).filter(([, , names]) => names.length > 0);
  return {
    before: (request) => {
      const event = request.event as Record<string, Record<string, string | undefined> | null | undefined>;
      const issues: ValidationIssue[] = [
        ...unsafeParameterIssues(event.pathParameters, 'path'),
        ...unsafeParameterIssues(event.queryStringParameters, 'query'),
      ];
      for (const [field, part, names] of parts) {
        const values = event[field] ?? {};
        for (const [name, integer] of names) {
          const raw = values[name];
          if (raw === undefined) continue;
          const ok = integer
            ? DECIMAL_INTEGER.test(raw) && Number.isSafeInteger(Number(raw))
            : DECIMAL_NUMBER.test(raw) && Number.isFinite(Number(raw));
          if (!ok) {
            issues.push({
              loc: [part, name],
              msg: integer ? 'must be a whole number in decimal digits' : 'must be a number in decimal digits',
              type: integer ? 'int_parsing' : 'float_parsing',
            });
          }
        }
      }
      if (issues.length > 0) throw new RequestValidationError(issues);
    },
  };
}

/** Turns @middy/validator's 400 into the contract's 422 with one `loc` per problem. */
function mapErrors(middleware: MiddlewareObj, branches?: Readonly<Record<string, string>>): MiddlewareObj {
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
          throw new RequestValidationError(toIssues(data.data, branches));
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

/**
 * The contract's issues of Ajv's errors; `branches` names the tagged unions' branches by schema
 * path (shared/http/union-branches.ts), so an issue inside one says which (`for \`kind\` \`drone\``).
 */
export function toIssues(errors: ErrorObject[], branches: Readonly<Record<string, string>> = {}): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    // A tag missing or unknown is already a `required` or `enum` error of the tag itself.
    if (e.keyword === 'discriminator') continue;
    // `if`/`then`, `anyOf` and a failed `oneOf` repeat what their branches already said; a `oneOf`
    // that more than one branch passed said nothing else, so it speaks for itself.
    const overMatched =
      e.keyword === 'oneOf' && Array.isArray((e.params as { passingSchemas?: unknown }).passingSchemas);
    if ((e.keyword === 'if' || e.keyword === 'anyOf' || e.keyword === 'oneOf') && !overMatched) continue;
    const segments = e.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    let [part, ...rest] = segments;
    if (part === undefined) {
      // The whole body missing shows up as a `required` error at the root.
      part = (e.params as { missingProperty?: string }).missingProperty ?? 'body';
    } else if (e.keyword === 'required' || e.keyword === 'dependentRequired') {
      rest.push((e.params as { missingProperty: string }).missingProperty);
    } else if (e.keyword === 'additionalProperties') {
      rest.push((e.params as { additionalProperty: string }).additionalProperty);
    }
    const loc: Loc = [PART[String(part)] ?? 'body', ...rest];
    const described = describe(e, rest.length === 0 && e.keyword === 'required');
    const within = Object.keys(branches)
      .filter((path) => e.schemaPath.startsWith(`${path}/`))
      .sort((a, b) => a.length - b.length)
      .map((path) => branches[path]);
    const { msg, type } =
      within.length > 0 ? { ...described, msg: `${described.msg} for ${within.join(', ')}` } : described;
    const key = `${loc.join('\u0000')}|${type}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ loc, msg, type });
  }
  return issues;
}

function describe(e: ErrorObject, wholePartMissing: boolean): { msg: string; type: string } {
  switch (e.keyword) {
    case 'oneOf':
      return { msg: 'gives more than one of the alternatives it takes one of: send only one', type: 'one_of' };
    case 'required':
      return { msg: wholePartMissing ? 'a JSON body is required' : 'field required', type: 'missing' };
    case 'dependentRequired':
      return { msg: `field required with \`${(e.params as { property: string }).property}\``, type: 'missing' };
    case 'additionalProperties':
      return { msg: 'unknown field', type: 'extra_forbidden' };
    case 'minProperties':
      return { msg: 'at least one field is required', type: 'too_short' };
    case 'format':
      return {
        msg: `must be a valid ${(e.params as { format: string }).format}`,
        type: `${(e.params as { format: string }).format}_format`,
      };
    case 'enum':
      return {
        msg: `must be one of: ${((e.params as { allowedValues: unknown[] }).allowedValues ?? []).join(', ')}`,
        type: 'enum',
      };
    default:
      return { msg: e.message ?? 'invalid value', type: e.keyword };
  }
}
