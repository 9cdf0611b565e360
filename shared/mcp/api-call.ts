/**
 * A tool call made as the API call it stands for: the input split into the route's path, query
 * and body, sent to the API itself with the caller's credential and the tool's name
 * (`X-Gatehouse-Tool`, recorded in the audit entries the request writes), and the answer turned
 * into a tool result (docs/mcp.md "Errors"). The route's own chain authenticates, authorizes,
 * scopes to the key's tenant, validates, rate-limits and audits: nothing is decided here.
 *
 * The API's URL is configuration (GATEHOUSE_BASE_URL for stdio, the deployment's own URL for
 * `/mcp`), never a caller's input, so these calls are not the outbound guard's business.
 */
import type { RouteDef } from '../routes/types.js';
import { inputSchemaOf, partOf, TOOL_PAGE_DEFAULT } from './tool-schemas.js';
import type { ToolDef, ToolLookup } from './tools.js';

/** The caller's credential, sent on as it came: an API key of the portal, or a user's bearer token. */
export type ApiCredential = { apiKey: string } | { bearer: string };

export interface ApiTarget {
  /** The API's URL without a trailing slash, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  credential: ApiCredential;
}

export const TOOL_HEADER = 'X-Gatehouse-Tool';

/** What MCP calls a tool result; `structuredContent` on success, `isError` with a reason otherwise. */
export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** The tool's input was wrong before any call: a tool error naming the field. */
export class ToolInputError extends Error {}

export interface ApiAnswer {
  status: number;
  body: unknown;
  retryAfter: string | null;
  requestId: string | null;
}

/** One request to `route` with the tool's input; `input` holds only fields the route takes. */
export async function callRoute(target: ApiTarget | null, baseUrl: string, route: RouteDef, tool: string, input: Readonly<Record<string, unknown>>): Promise<ApiAnswer> {
  let path = route.path;
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    if (value === undefined) continue;
    const part = partOf(route, name);
    if (part === 'path') path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
    else if (part === 'query') query.set(name, String(value));
    else if (part === 'body') body[name] = value;
    else throw new ToolInputError(`${name}: not a field of this tool`);
  }
  const missing = /\{(\w+)\}/.exec(path);
  if (missing) throw new ToolInputError(`${missing[1]}: required`);
  const headers: Record<string, string> = { accept: 'application/json', [TOOL_HEADER]: tool };
  if (target && 'apiKey' in target.credential) headers['x-api-key'] = target.credential.apiKey;
  if (target && 'bearer' in target.credential) headers.authorization = `Bearer ${target.credential.bearer}`;
  const sendsBody = route.request?.body !== undefined && (Object.keys(body).length > 0 || route.method !== 'GET');
  if (sendsBody) headers['content-type'] = 'application/json';
  const qs = query.size > 0 ? `?${query}` : '';
  const res = await fetch(`${baseUrl}${path}${qs}`, { method: route.method, headers, body: sendsBody ? JSON.stringify(body) : undefined });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: res.status, body: parsed, retryAfter: res.headers.get('retry-after'), requestId: res.headers.get('x-request-id') };
}

/** A page position handed to the model: opaque, bound to its tool. */
export function encodeCursor(tool: string, offset: number): string {
  return Buffer.from(JSON.stringify({ t: tool, o: offset })).toString('base64url');
}

export function decodeCursor(tool: string, cursor: unknown): number {
  if (cursor === undefined) return 0;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(String(cursor), 'base64url').toString('utf8'));
    if (parsed && typeof parsed === 'object' && 't' in parsed && 'o' in parsed && parsed.t === tool && Number.isInteger(parsed.o) && Number(parsed.o) >= 0) {
      return Number(parsed.o);
    }
  } catch {
    // not ours: said below
  }
  throw new ToolInputError('cursor: not a cursor this tool gave (pass next_cursor as it came)');
}

/** Runs a tool: its route(s), its paging, its answer as a tool result. */
export async function runTool(tool: ToolDef, target: ApiTarget, args: Readonly<Record<string, unknown>>): Promise<ToolResult> {
  try {
    const accepted = fieldsOf(tool);
    for (const name of Object.keys(args)) {
      if (!accepted.has(name)) throw new ToolInputError(`${name}: not a field of this tool${name === 'tenant_id' ? ' (the key decides the tenant)' : ''}`);
    }
    const { cursor, limit: asked, ...rest } = args;
    const route = tool.pick ? tool.pick(args) : tool.routes[0];
    const input: Record<string, unknown> = { ...tool.defaults, ...rest, ...tool.fixed };
    const limit = typeof asked === 'number' ? asked : asked === undefined ? TOOL_PAGE_DEFAULT : NaN;
    if (tool.paging && !(Number.isInteger(limit) && limit >= 1)) throw new ToolInputError('limit: must be a positive integer');
    const offset = tool.paging ? decodeCursor(tool.name, cursor) : 0;
    if (!tool.paging && (cursor !== undefined)) throw new ToolInputError('cursor: this tool does not page');
    if (tool.paging === 'route') Object.assign(input, { limit, offset });
    else if (!tool.paging && asked !== undefined) input.limit = asked;
    if (tool.lookup && input[tool.lookup.name] !== undefined) {
      const found = await findByName(tool, tool.lookup, target, input);
      if ('isError' in found) return found;
      input[tool.lookup.field] = found.id;
      delete input[tool.lookup.name];
    }
    const answer = await callRoute(tool.credential === 'none' ? null : target, target.baseUrl, route, tool.name, dropForeign(route, input));
    if (answer.status >= 200 && answer.status < 300) return success(tool, answer.body, limit, offset);
    return failure(answer);
  } catch (err) {
    if (err instanceof ToolInputError) return errorResult(`Invalid input: ${err.message}`);
    if (err instanceof TypeError) return errorResult(`Could not reach the Gatehouse API at ${target.baseUrl} (${err.message}); retry later.`);
    throw err;
  }
}

/** The id of the one object of the lookup's list named as the input names it, or why there is none. */
async function findByName(tool: ToolDef, lookup: ToolLookup, target: ApiTarget, input: Record<string, unknown>): Promise<{ id: string } | ToolResult> {
  if (input[lookup.field] !== undefined) throw new ToolInputError(`${lookup.name}: give ${lookup.field} or ${lookup.name}, not both`);
  const wanted = String(input[lookup.name]).trim().toLowerCase();
  const answer = await callRoute(target, target.baseUrl, lookup.route, tool.name, lookup.query);
  if (answer.status !== 200 || !Array.isArray(answer.body)) return failure(answer);
  const listed = answer.body.filter((o): o is Record<string, unknown> => Boolean(o) && typeof o === 'object');
  const matches = listed.filter((o) => String(o[lookup.name]).trim().toLowerCase() === wanted);
  if (matches.length === 1) return { id: String(matches[0]![lookup.field]) };
  if (matches.length > 1) {
    return errorResult(`${lookup.name}: ${matches.length} ${lookup.what}s are named "${String(input[lookup.name])}"; give ${lookup.field} (${matches.map((o) => String(o[lookup.field])).join(', ')})`);
  }
  const names = listed.slice(0, 20).map((o) => `"${String(o[lookup.name])}"`);
  return errorResult(`${lookup.name}: no ${lookup.what} named "${String(input[lookup.name])}"; ${names.length > 0 ? `yours: ${names.join(', ')}` : `you have no ${lookup.what}s`}`);
}

const fieldSets = new Map<string, Set<string>>();

/** The fields a tool's input schema has: nothing else is sent (not `tenant_id`, not what it fixes). */
function fieldsOf(tool: ToolDef): Set<string> {
  let fields = fieldSets.get(tool.name);
  if (!fields) {
    const properties = inputSchemaOf(tool).properties;
    fields = new Set(properties && typeof properties === 'object' ? Object.keys(properties) : []);
    fieldSets.set(tool.name, fields);
  }
  return fields;
}

/** A composition's input holds fields of its other routes too: only the chosen route's are sent. */
function dropForeign(route: RouteDef, input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([name]) => partOf(route, name) !== undefined));
}

function success(tool: ToolDef, body: unknown, limit: number, offset: number): ToolResult {
  let structured: Record<string, unknown>;
  if (Array.isArray(body)) {
    if (tool.paging === 'slice') {
      const page = body.slice(offset, offset + limit);
      structured = { items: page, next_cursor: offset + limit < body.length ? encodeCursor(tool.name, offset + limit) : null };
    } else if (tool.paging === 'route') {
      structured = { items: body, next_cursor: body.length >= limit ? encodeCursor(tool.name, offset + limit) : null };
    } else {
      structured = { items: body };
    }
  } else if (body && typeof body === 'object') {
    structured = { ...(body as Record<string, unknown>) };
    if (tool.paging) {
      const items = Array.isArray(structured.items) ? structured.items.length : 0;
      const total = typeof structured.total === 'number' ? structured.total : null;
      const more = total !== null ? offset + items < total : items >= limit;
      structured.next_cursor = more ? encodeCursor(tool.name, offset + limit) : null;
    }
  } else {
    structured = {};
  }
  return { content: [{ type: 'text', text: render(tool, structured) }], structuredContent: structured };
}

/** The short text beside the structured result, for clients that show text only. */
function render(tool: ToolDef, structured: Record<string, unknown>): string {
  const json = JSON.stringify(structured);
  const count = Array.isArray(structured.items) ? `${structured.items.length} item(s)${structured.next_cursor ? ', more with next_cursor' : ''}: ` : '';
  const LIMIT = 2000;
  return `${tool.title}: ${count}${json.length > LIMIT ? `${json.slice(0, LIMIT)}… (cut; the whole answer is in structuredContent)` : json}`;
}

function errorResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

const PARTS_IN_LOC = new Set(['path', 'query', 'body', 'header']);

/** A refused or failed call as a tool error that says why, in the API's own words. */
function failure(answer: ApiAnswer): ToolResult {
  const { status, body } = answer;
  const detail = body && typeof body === 'object' && 'detail' in body ? (body as { detail: unknown }).detail : undefined;
  if (status === 422 && Array.isArray(detail)) {
    const problems = detail.map((d: { loc?: unknown[]; msg?: string }) => {
      const loc = (d.loc ?? []).filter((p, i) => !(i === 0 && PARTS_IN_LOC.has(String(p)))).map(String);
      const field = loc.length > 0 ? loc.join('.').replace(/^offset$/, 'cursor') : 'input';
      return `${field}: ${d.msg ?? 'invalid'}`;
    });
    return errorResult(`Invalid input: ${problems.join('; ')}`);
  }
  const said = typeof detail === 'string' ? detail : typeof body === 'string' && body ? body.slice(0, 300) : `HTTP ${status}`;
  if (status === 429) return errorResult(`Rate limited: ${said}${answer.retryAfter ? ` (retry after ${answer.retryAfter} s)` : ''}`);
  if (status >= 500) {
    const wait = answer.retryAfter ? ` in ${answer.retryAfter} s` : ' shortly';
    return errorResult(`The service could not answer (${status}${answer.requestId ? `, request ${answer.requestId}` : ''}): ${said}. Retry${wait}.`);
  }
  const why: Record<number, string> = { 401: 'Not authenticated', 403: 'Not allowed', 404: 'Not found', 409: 'Conflict', 413: 'Too large' };
  return errorResult(`${why[status] ?? `Refused (${status})`}: ${said}`);
}
