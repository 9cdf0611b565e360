/**
 * A tool call's request to the API: the input split into the route's path, query and body, sent
 * to the API itself with the caller's credential and the tool's name (`X-Gatehouse-Tool`,
 * recorded in the audit entries the request writes). The route's own chain authenticates,
 * authorizes, scopes to the key's tenant, validates, rate-limits and audits: nothing is decided
 * here. shared/mcp/run-tool.ts makes a tool call of it.
 *
 * The API's URL is configuration (GATEHOUSE_BASE_URL for stdio, the deployment's own URL for
 * `/mcp`), never a caller's input, so these calls are not the outbound guard's business.
 */
import type { RouteDef } from '../routes/types.js';
import { partOf } from './tool-schemas.js';

/** The caller's credential, sent on as it came: an API key of the portal, or a user's bearer token. */
export type ApiCredential = { apiKey: string } | { bearer: string };

export interface ApiTarget {
  /** The API's URL without a trailing slash, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  credential: ApiCredential;
}

export const TOOL_HEADER = 'X-Gatehouse-Tool';

/** The tool's input was wrong before any call: a tool error naming the field. */
export class ToolInputError extends Error {}

/** The API did not answer at all (refused, reset, no route): a tool error saying to retry. */
export class ApiUnreachableError extends Error {}

export interface ApiAnswer {
  status: number;
  body: unknown;
  retryAfter: string | null;
  requestId: string | null;
  /** A list's answer links a next page (`Link: <...>; rel="next"`, docs/architecture.md "Lists"). */
  nextPage: boolean;
}

/** One request to `route` with the tool's input; `input` holds only fields the route takes. */
export async function callRoute(
  target: ApiTarget | null,
  baseUrl: string,
  route: RouteDef,
  tool: string,
  input: Readonly<Record<string, unknown>>,
): Promise<ApiAnswer> {
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
  const qs = query.size > 0 ? `?${query.toString()}` : '';
  let res: Response;
  try {
    res = await fetch(`${baseUrl}${path}${qs}`, {
      method: route.method,
      headers,
      body: sendsBody ? JSON.stringify(body) : undefined,
    });
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
    throw new ApiUnreachableError(cause);
  }
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return {
    status: res.status,
    body: parsed,
    retryAfter: res.headers.get('retry-after'),
    requestId: res.headers.get('x-request-id'),
    nextPage: /;\s*rel="next"/.test(res.headers.get('link') ?? ''),
  };
}
