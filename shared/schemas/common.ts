/** Schemas shared by many routes: ids, paging, timestamps and the contract's error bodies. */
import type { JsonSchema } from './json-schema.js';

export const uuid = { type: 'string', format: 'uuid' } as const satisfies JsonSchema;

/**
 * The schema, or null: `null` joins its type, and its `enum` when it has one (a nullable enum
 * whose list lacks null refuses null, and so would a client generated from the document).
 */
export function nullable<const T extends { type: string; enum?: readonly unknown[] }>(
  schema: T,
): Omit<T, 'type' | 'enum'> & { type: readonly [T['type'], 'null'] } & (T extends { enum: readonly (infer E)[] }
    ? { enum: readonly (E | null)[] }
    : unknown) {
  const { type, enum: values, ...rest } = schema;
  return { ...rest, type: [type, 'null'], ...(values ? { enum: [...values, null] } : {}) } as never;
}

export const timestamp = /* @__PURE__ */ (() =>
  ({
    type: 'string',
    format: 'date-time',
    description: 'RFC 3339 UTC timestamp with milliseconds, e.g. 2026-11-21T13:45:00.123Z',
  }) as const satisfies JsonSchema)();

/** Upper bound of `offset`: a page reads `offset + limit` items; deeper than this, narrow the filter. */
export const MAX_OFFSET = 10_000;

/** Paging per the spec: `limit` 1..200 (default 50), `offset` 0..10,000 (default 0). */
export const pagingProperties = /* @__PURE__ */ (() =>
  ({
    limit: { type: 'integer', minimum: 1, maximum: 200, default: 50, description: 'Page size.' },
    offset: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_OFFSET,
      default: 0,
      description:
        'Items to skip, at most 10,000 (a page reads offset + limit items; narrow the filter, e.g. by dates, to go deeper).',
    },
  }) as const satisfies JsonSchema)();

/**
 * `next_offset` of a page object (docs/architecture.md, "Lists"): the offset of the next page, or
 * null on the last one; the `Link: <...>; rel="next"` header carries the same as a URL.
 */
export const nextOffset = {
  type: ['integer', 'null'],
  minimum: 0,
  description: 'The offset of the next page (send it as `offset`), or null when this page is the last.',
} as const satisfies JsonSchema;

/**
 * The page object of a list the spec does not return as an array (docs/architecture.md, "Lists"),
 * for a list whose whole is at hand, so `total` is known.
 */
export const pageOf = <const S extends JsonSchema>(items: S, description: string) =>
  ({
    type: 'object',
    description,
    properties: {
      items: { type: 'array', items },
      total: { type: 'integer', minimum: 0, description: 'Items in all.' },
      limit: { type: 'integer' },
      offset: { type: 'integer' },
      next_offset: nextOffset,
    },
    required: ['items', 'total', 'limit', 'offset', 'next_offset'],
  }) as const satisfies JsonSchema;

export const pagingQuery = {
  type: 'object',
  properties: pagingProperties,
  additionalProperties: false,
} as const satisfies JsonSchema;

/** An object schema with one required uuid path parameter. */
export const uuidPath = (name: string): JsonSchema => ({
  type: 'object',
  properties: { [name]: uuid },
  required: [name],
  additionalProperties: false,
});

/** The query of a link sent to people: its `token` (`what` names the link). */
export const linkTokenQuery = <const W extends string>(what: W) =>
  ({
    type: 'object',
    properties: {
      token: { type: 'string', minLength: 1, maxLength: 200, description: `The token of the ${what} link.` },
    },
    required: ['token'],
    additionalProperties: false,
  }) as const satisfies JsonSchema;

export const validationError = {
  type: 'object',
  description: 'The request failed validation: one entry per problem.',
  properties: {
    detail: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          loc: {
            type: 'array',
            items: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
            description: 'Where the problem is: starts with path, query, header or body.',
          },
          msg: { type: 'string' },
          type: { type: 'string' },
        },
        required: ['loc', 'msg', 'type'],
      },
    },
  },
  required: ['detail'],
} as const satisfies JsonSchema;

export const errorBody = {
  type: 'object',
  description: 'Any error other than a validation error.',
  properties: { detail: { type: 'string' } },
  required: ['detail'],
} as const satisfies JsonSchema;
