/**
 * A tool's input and output schemas, derived from its routes' own schemas (never copied by hand):
 * the input is the properties of the route's path, query and body merged (a tool's caller sees one
 * object), without `tenant_id` (the key decides the tenant), without what the tool fixes, and with
 * `cursor` instead of `offset` where it pages; the output is the route's success schema, an array
 * wrapped as `{items}` (MCP wants an object), with `next_cursor` where it pages.
 */
import type { JsonSchema } from '../schemas/json-schema.js';
import type { RouteDef } from '../routes/types.js';
import type { ToolDef } from './tools.js';

/** Where a route takes an input field. */
export type Part = 'path' | 'query' | 'body';
const PARTS: readonly Part[] = ['path', 'query', 'body'];

/** Items a paged tool answers at most a call, and by default: a page a model can read. */
export const TOOL_PAGE_MAX = 100;
export const TOOL_PAGE_DEFAULT = 20;

type Props = Record<string, JsonSchema>;

function propsOf(schema: JsonSchema | undefined): Props {
  const props = schema?.properties;
  return props && typeof props === 'object' ? (props as Props) : {};
}

function requiredOf(schema: JsonSchema | undefined): readonly string[] {
  return Array.isArray(schema?.required) ? (schema.required as string[]) : [];
}

/** The fields a tool's caller gives: each route field except the tenant, the fixed and the omitted. */
function callerFields(
  tool: ToolDef,
  route: RouteDef,
): Array<{ name: string; part: Part; schema: JsonSchema; required: boolean }> {
  const dropped = new Set(['tenant_id', ...Object.keys(tool.fixed ?? {}), ...(tool.omit ?? [])]);
  if (tool.paging === 'route') dropped.add('offset');
  const fields = [];
  for (const part of PARTS) {
    const schema = route.request?.[part];
    const required = requiredOf(schema);
    for (const [name, prop] of Object.entries(propsOf(schema))) {
      if (!dropped.has(name)) fields.push({ name, part, schema: prop, required: required.includes(name) });
    }
  }
  return fields;
}

/** Which part of `route` takes the field `name`, if any. */
export function partOf(route: RouteDef, name: string): Part | undefined {
  return PARTS.find((part) => name in propsOf(route.request?.[part]));
}

const CURSOR: JsonSchema = {
  type: 'string',
  maxLength: 200,
  description: 'Where to continue: the next_cursor of the previous page of this tool. Omit for the first page.',
};

/** The page size of a paging tool: the route's limit, capped for a model's context. */
function pageLimit(route: RouteDef): JsonSchema {
  const own = propsOf(route.request?.query).limit ?? {};
  const max = typeof own.maximum === 'number' ? Math.min(own.maximum, TOOL_PAGE_MAX) : TOOL_PAGE_MAX;
  return {
    type: 'integer',
    minimum: 1,
    maximum: max,
    default: Math.min(TOOL_PAGE_DEFAULT, max),
    description: 'Items a page.',
  };
}

export function inputSchemaOf(tool: ToolDef): JsonSchema & { type: 'object' } {
  const properties: Props = {};
  // A field every route of the tool requires is required of the tool.
  const requiredBy = new Map<string, number>();
  for (const route of tool.routes) {
    for (const field of callerFields(tool, route)) {
      const had = properties[field.name];
      if (had && JSON.stringify(had.type) !== JSON.stringify(field.schema.type)) {
        throw new Error(`tool ${tool.name}: field ${field.name} has two types in its routes`);
      }
      properties[field.name] ??= withDefault(field.schema, tool.defaults?.[field.name]);
      if (field.required) requiredBy.set(field.name, (requiredBy.get(field.name) ?? 0) + 1);
    }
  }
  if (tool.paging) {
    properties.limit = pageLimit(tool.routes[0]);
    properties.cursor = CURSOR;
  }
  // A field the tool can also find by name is no longer required: one of the two is.
  if (tool.lookup) {
    properties[tool.lookup.name] = tool.lookup.nameSchema;
    requiredBy.delete(tool.lookup.field);
  }
  const required = [...requiredBy].filter(([, n]) => n === tool.routes.length).map(([name]) => name);
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

function withDefault(schema: JsonSchema, value: string | number | boolean | undefined): JsonSchema {
  return value === undefined ? schema : { ...schema, default: value };
}

const NEXT_CURSOR: JsonSchema = {
  type: ['string', 'null'],
  description: 'Pass as cursor for the next page; null when this is the last.',
};

/** A route's success body as a tool's output: an object, with `next_cursor` when the tool pages. */
function outputOfRoute(tool: ToolDef, route: RouteDef): JsonSchema {
  const schema = route.response.schema;
  if (!schema) return { type: 'object', properties: {}, additionalProperties: false };
  if (schema.type === 'array') {
    const properties: Props = { items: schema };
    if (tool.paging) properties.next_cursor = NEXT_CURSOR;
    return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
  }
  if (!tool.paging) return schema;
  return {
    ...schema,
    properties: { ...propsOf(schema), next_cursor: NEXT_CURSOR },
    required: [...requiredOf(schema), 'next_cursor'],
  };
}

export function outputSchemaOf(tool: ToolDef): JsonSchema & { type: 'object' } {
  if (tool.routes.length === 1) {
    const out = outputOfRoute(tool, tool.routes[0]);
    if (out.type !== 'object')
      throw new Error(`tool ${tool.name}: its route answers ${String(out.type)}, not an object`);
    return { ...out, type: 'object' };
  }
  // A composition answers one of its routes' bodies.
  return { type: 'object', anyOf: tool.routes.map((r) => outputOfRoute(tool, r)) };
}
