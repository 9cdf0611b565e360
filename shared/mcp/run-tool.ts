/**
 * A tool call (shared/mcp/tools.ts) run as the API call(s) it stands for: the input checked
 * against the tool's own fields, a name looked up where the tool allows one, the page turned into
 * the route's offset, one request (shared/mcp/api-call.ts), the answer as a tool result.
 */
import type { RouteDef } from '../routes/types.js';
import { ApiUnreachableError, callRoute, ToolInputError, type ApiTarget } from './api-call.js';
import { decodeCursor } from './cursors.js';
import { inputSchemaOf, partOf, TOOL_PAGE_DEFAULT, TOOL_PAGE_MAX } from './tool-schemas.js';
import { errorResult, failure, success, type ToolResult } from './tool-results.js';
import type { ToolDef, ToolLookup } from './tools.js';

/** Runs a tool: its route(s), its paging, its answer as a tool result. */
export async function runTool(
  tool: ToolDef,
  target: ApiTarget,
  args: Readonly<Record<string, unknown>>,
): Promise<ToolResult> {
  try {
    const accepted = fieldsOf(tool);
    for (const name of Object.keys(args)) {
      if (!accepted.has(name))
        throw new ToolInputError(
          `${name}: not a field of this tool${name === 'tenant_id' ? ' (the key decides the tenant)' : ''}`,
        );
    }
    const { cursor, limit: asked, ...rest } = args;
    const route = tool.pick ? tool.pick(args) : tool.routes[0];
    const input: Record<string, unknown> = { ...tool.defaults, ...rest, ...tool.fixed };
    const limit = typeof asked === 'number' ? asked : asked === undefined ? TOOL_PAGE_DEFAULT : NaN;
    if (tool.paging && !(Number.isInteger(limit) && limit >= 1 && limit <= TOOL_PAGE_MAX))
      throw new ToolInputError(`limit: must be an integer from 1 to ${TOOL_PAGE_MAX}`);
    const offset = tool.paging ? decodeCursor(tool.name, cursor) : 0;
    if (tool.paging === 'route') Object.assign(input, { limit, offset });
    else if (!tool.paging && asked !== undefined) input.limit = asked;
    if (tool.lookup && input[tool.lookup.name] !== undefined) {
      const found = await findByName(tool, tool.lookup, target, input);
      if ('isError' in found) return found;
      input[tool.lookup.field] = found.id;
      delete input[tool.lookup.name];
    }
    const answer = await callRoute(
      tool.credential === 'none' ? null : target,
      target.baseUrl,
      route,
      tool.name,
      dropForeign(route, input),
    );
    if (answer.status >= 200 && answer.status < 300) return success(tool, answer, limit, offset);
    return failure(answer);
  } catch (err) {
    if (err instanceof ToolInputError) return errorResult(`Invalid input: ${err.message}`);
    if (err instanceof ApiUnreachableError)
      return errorResult(`Could not reach the Gatehouse API at ${target.baseUrl} (${err.message}); retry later.`);
    throw err;
  }
}

/** The id of the one object of the lookup's list named as the input names it, or why there is none. */
async function findByName(
  tool: ToolDef,
  lookup: ToolLookup,
  target: ApiTarget,
  input: Record<string, unknown>,
): Promise<{ id: string } | ToolResult> {
  if (input[lookup.field] !== undefined)
    throw new ToolInputError(`${lookup.name}: give ${lookup.field} or ${lookup.name}, not both`);
  const wanted = String(input[lookup.name]).trim().toLowerCase();
  const answer = await callRoute(target, target.baseUrl, lookup.route, tool.name, lookup.query);
  if (answer.status !== 200 || !Array.isArray(answer.body)) return failure(answer);
  const listed = answer.body.filter((o): o is Record<string, unknown> => Boolean(o) && typeof o === 'object');
  const matches = listed.filter((o) => String(o[lookup.name]).trim().toLowerCase() === wanted);
  if (matches.length === 1) return { id: String(matches[0]![lookup.field]) };
  if (matches.length > 1) {
    return errorResult(
      `${lookup.name}: ${matches.length} ${lookup.what}s are named "${String(input[lookup.name])}"; give ${lookup.field} (${matches.map((o) => String(o[lookup.field])).join(', ')})`,
    );
  }
  const names = listed.slice(0, 20).map((o) => `"${String(o[lookup.name])}"`);
  return errorResult(
    `${lookup.name}: no ${lookup.what} named "${String(input[lookup.name])}"; ${names.length > 0 ? `yours: ${names.join(', ')}` : `you have no ${lookup.what}s`}`,
  );
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
