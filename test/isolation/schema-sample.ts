/**
 * A small generator of minimal valid values from the route table's JSON Schemas: required
 * properties (plus optional ones up to `minProperties`), the first enum value, formats (email,
 * uuid, date-time, date, time, uri, ipv4, ipv6, hostname), length, range and item-count bounds.
 *
 * References (properties that name a tenant's resource: `tenant_id`, `user_id`, `sensor_ids`, ...)
 * are not invented here: the caller's `ref` callback fills them from the fixture registry, or
 * leaves an optional one out. What the generator cannot produce it refuses loudly
 * (SchemaSampleError), so a new route never gets silently skipped.
 *
 * Each call of `sampleValue` makes fresh emails and names, so two creates never collide on
 * uniqueness.
 */
import { randomUUID } from 'node:crypto';
import type { JsonSchema } from '../../shared/schemas/json-schema.js';

export class SchemaSampleError extends Error {
  override name = 'SchemaSampleError';
}

/**
 * Strings tried, in order, for a `pattern` the default sample does not match. A later schema with a
 * pattern none of these match fails generation with a message naming the pattern: add a sample.
 */
export const PATTERN_SAMPLES: readonly string[] = [
  '01a1fea8-0000-7000-8000-000000000001',
  'site.geojson',
  '00:00',
  '12:30',
  '2030-01-01',
  'a',
  'A',
  '0',
  'abc',
  'ABC',
  'abc-123',
  'ABC_123',
  'CVE-2021-44228',
  '#aabbcc',
  '+4712345678',
  'Europe/Oslo',
  // A PagerDuty routing key: 32 letters and digits.
  'AbCdEfGhIjKlMnOpQrStUvWxYz012345',
];

export interface SampleContext {
  /**
   * Whether `name` (a property of an object schema) names a resource: then `ref` fills it. Throws
   * for a name that looks like a reference the registry does not know.
   */
  isRef(name: string, schema: JsonSchema, where: string): boolean;
  /** The value of a reference, or undefined to leave an optional one out. */
  ref(name: string, schema: JsonSchema, required: boolean, where: string): unknown;
  /**
   * Whether the caller wants this reference given even where it is optional: an optional object
   * or array around it is then generated too, so the reference has a place.
   */
  wanted?(name: string): boolean;
}

/** Whether a reference the context wants sits somewhere below `schema`. */
function holdsWanted(schema: JsonSchema, ctx: SampleContext): boolean {
  if (!ctx.wanted) return false;
  if (isObject(schema.properties)) {
    for (const [name, prop] of Object.entries(schema.properties)) {
      if (ctx.wanted(name) || (isObject(prop) && holdsWanted(prop, ctx))) return true;
    }
  }
  if (isObject(schema.items) && holdsWanted(schema.items, ctx)) return true;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.some((b) => isObject(b) && holdsWanted(b, ctx))) return true;
  }
  return false;
}

let counter = 0;
const runTag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A token unique within and across runs. */
export function uniqueToken(): string {
  counter += 1;
  return `${runTag}${counter.toString(36)}`;
}

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

function typesOf(schema: JsonSchema): string[] {
  const t = schema.type;
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  if (isObject(schema.properties) || Array.isArray(schema.required)) return ['object'];
  if (isObject(schema.items)) return ['array'];
  return [];
}

/** A minimal valid value for `schema`; `where` names the place for error messages. */
export function sampleValue(schema: JsonSchema, ctx: SampleContext, where: string): unknown {
  // A schema that shows an example (a geofence: if/then branches no generator reads) is sampled by it.
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return structuredClone(schema.examples[0]);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) {
    const nonNull = (schema.enum as unknown[]).find((v) => v !== null);
    return nonNull !== undefined ? nonNull : schema.enum[0];
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) {
      const errors: string[] = [];
      // Prefer a branch that is not `null` (a minimal value that still exercises the route), and of
      // those one that holds a reference the caller wants given (a workflow step that names a webhook).
      const wants = (b: unknown) => isObject(b) && holdsWanted(b, ctx);
      const ordered = [...(branches as unknown[])].sort(
        (a, b) => Number(isNull(a)) - Number(isNull(b)) || Number(!wants(a)) - Number(!wants(b)),
      );
      for (const branch of ordered) {
        try {
          // A branch that names properties of the object (`oneOf` of which keys to send) adds to them.
          const base = stripKey(schema, key);
          const merged =
            isObject(base.properties) && isObject((branch as JsonSchema).properties)
              ? mergeAll(base, [branch as JsonSchema])
              : { ...base, ...(branch as JsonSchema) };
          return sampleValue(merged, ctx, where);
        } catch (err) {
          errors.push((err as Error).message);
        }
      }
      throw new SchemaSampleError(`no ${key} branch of ${where} can be generated: ${errors.join('; ')}`);
    }
  }
  if (Array.isArray(schema.allOf)) {
    return sampleValue(mergeAll(stripKey(schema, 'allOf'), schema.allOf as JsonSchema[]), ctx, where);
  }
  if (schema.$ref !== undefined) throw new SchemaSampleError(`${where}: $ref is not supported by the sample generator`);
  const types = typesOf(schema);
  const type = types.find((t) => t !== 'null') ?? types[0];
  switch (type) {
    case 'object':
      return sampleObject(schema, ctx, where);
    case 'array':
      return sampleArray(schema, ctx, where);
    case 'string':
      return sampleString(schema, where);
    case 'integer':
    case 'number':
      return sampleNumber(schema, type, where);
    case 'boolean':
      return schema.default ?? true;
    case 'null':
      return null;
    default:
      if ('default' in schema) return schema.default;
      throw new SchemaSampleError(
        `${where}: cannot generate a value for a schema without a type: ${JSON.stringify(schema)}`,
      );
  }
}

const isNull = (s: unknown) => isObject(s) && (s.type === 'null' || s.const === null);

function stripKey(schema: JsonSchema, key: string): JsonSchema {
  const { [key]: _drop, ...rest } = schema;
  return rest;
}

function mergeAll(base: JsonSchema, parts: JsonSchema[]): JsonSchema {
  let out: Record<string, unknown> = { ...base };
  for (const part of parts) {
    const props: Record<string, unknown> = { ...(isObject(out.properties) ? out.properties : {}) };
    // A property both name is both: `{type: 'string'}` in a branch keeps the object's own bounds.
    for (const [name, prop] of Object.entries(isObject(part.properties) ? part.properties : {}))
      props[name] = isObject(props[name]) && isObject(prop) ? { ...props[name], ...prop } : prop;
    const required = [...new Set([...((out.required as string[]) ?? []), ...((part.required as string[]) ?? [])])];
    out = { ...out, ...part, properties: props, required };
  }
  return out;
}

function sampleObject(schema: JsonSchema, ctx: SampleContext, where: string): Record<string, unknown> {
  const properties = (isObject(schema.properties) ? schema.properties : {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const name of required) {
    if (!(name in properties)) {
      throw new SchemaSampleError(`${where}: required property ${name} has no schema`);
    }
  }
  for (const [name, prop] of Object.entries(properties)) {
    const at = `${where}.${name}`;
    const isRequired = required.has(name);
    if (ctx.isRef(name, prop, at)) {
      const value = ctx.ref(name, prop, isRequired, at);
      if (value !== undefined) out[name] = value;
    } else if (isRequired || holdsWanted(prop, ctx)) {
      out[name] = sampleValue(prop, ctx, at);
    }
  }
  const minProperties = typeof schema.minProperties === 'number' ? schema.minProperties : 0;
  for (const [name, prop] of Object.entries(properties)) {
    if (Object.keys(out).length >= minProperties) break;
    const at = `${where}.${name}`;
    if (name in out || ctx.isRef(name, prop, at)) continue;
    out[name] = sampleValue(prop, ctx, at);
  }
  if (Object.keys(out).length < minProperties) {
    throw new SchemaSampleError(
      `${where}: needs ${minProperties} properties, the schema names only ${Object.keys(out).length} that can be generated`,
    );
  }
  return out;
}

function sampleArray(schema: JsonSchema, ctx: SampleContext, where: string): unknown[] {
  const items = isObject(schema.items) ? schema.items : {};
  const min = Math.max(typeof schema.minItems === 'number' ? schema.minItems : 0, holdsWanted(items, ctx) ? 1 : 0);
  if (min === 0) return [];
  if (schema.uniqueItems === true && Array.isArray(items.enum)) {
    if (items.enum.length < min)
      throw new SchemaSampleError(`${where}: ${min} unique items but only ${items.enum.length} enum values`);
    return items.enum.slice(0, min);
  }
  const out: unknown[] = [];
  for (let i = 0; i < min; i++) out.push(sampleValue(items, ctx, `${where}[${i}]`));
  if (schema.uniqueItems === true && new Set(out.map((v) => JSON.stringify(v))).size < out.length) {
    throw new SchemaSampleError(`${where}: cannot generate ${min} unique items`);
  }
  return out;
}

const FUTURE_MS = 30 * 24 * 3600 * 1000;

function sampleString(schema: JsonSchema, where: string): string {
  const tag = uniqueToken();
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  let value: string;
  switch (format) {
    case undefined:
      // Upper and lower case letters, a digit and a symbol: also a password any policy accepts.
      value = `Isol-${tag}-Aa1`;
      break;
    case 'email':
    case 'idn-email':
      return `isol-${tag}@isolation.example`;
    case 'uuid':
      return randomUUID();
    case 'date-time':
      // In the future: expiries and schedules must usually be.
      return new Date(Date.now() + FUTURE_MS).toISOString();
    case 'date':
      return new Date(Date.now() + FUTURE_MS).toISOString().slice(0, 10);
    case 'time':
      return '12:00:00Z';
    case 'uri':
    case 'url':
    case 'iri':
      return `https://isolation.example/${tag}`;
    case 'ipv4':
      return '198.51.100.10';
    case 'ipv6':
      return '2001:db8::10';
    case 'hostname':
      return `isol-${tag}.isolation.example`;
    default:
      throw new SchemaSampleError(`${where}: string format ${format} is not supported by the sample generator`);
  }
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const fit = (s: string) => (s.length < min ? s + 'x'.repeat(min - s.length) : s).slice(0, max);
  value = fit(value);
  if (typeof schema.pattern === 'string') {
    const re = new RegExp(schema.pattern, 'u');
    if (!re.test(value)) {
      const sample = PATTERN_SAMPLES.map(fit).find((s) => re.test(s) && s.length >= min && s.length <= max);
      if (sample === undefined) {
        throw new SchemaSampleError(
          `${where}: no sample matches the pattern ${schema.pattern}; add one to PATTERN_SAMPLES in test/isolation/schema-sample.ts`,
        );
      }
      value = sample;
    }
  }
  if (value.length < min || value.length > max)
    throw new SchemaSampleError(`${where}: cannot fit a string in ${min}..${max} characters`);
  return value;
}

function sampleNumber(schema: JsonSchema, type: 'integer' | 'number', where: string): number {
  const num = (k: string) => (typeof schema[k] === 'number' ? schema[k] : undefined);
  let lo = num('minimum') ?? (num('exclusiveMinimum') !== undefined ? num('exclusiveMinimum')! + 1 : undefined);
  const hi = num('maximum') ?? (num('exclusiveMaximum') !== undefined ? num('exclusiveMaximum')! - 1 : undefined);
  lo ??= hi !== undefined ? Math.min(1, hi) : 1;
  let value = type === 'integer' ? Math.ceil(lo) : lo;
  const step = num('multipleOf');
  if (step) value = Math.ceil(value / step) * step;
  if (hi !== undefined && value > hi) throw new SchemaSampleError(`${where}: no ${type} in ${lo}..${hi}`);
  return value;
}
