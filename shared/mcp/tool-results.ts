/** API answers as MCP tool results (docs/mcp.md "Errors"): structured content and a short text, or a tool error saying why. */
import type { ApiAnswer } from './api-call.js';
import { encodeCursor } from './cursors.js';
import type { ToolDef } from './tools.js';

/** What MCP calls a tool result; `structuredContent` on success, `isError` with a reason otherwise. */
export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * A 2xx answer: its body as structured content (an array wrapped as `items`), paged as the tool
 * pages; a route's page has a next one when the answer links it (`Link` rel="next").
 */
export function success(
  tool: ToolDef,
  answer: Pick<ApiAnswer, 'body' | 'nextPage'>,
  limit: number,
  offset: number,
): ToolResult {
  const { body, nextPage } = answer;
  let structured: Record<string, unknown>;
  if (Array.isArray(body)) {
    if (tool.paging === 'route') {
      structured = { items: body, next_cursor: nextPage ? encodeCursor(tool.name, offset + limit) : null };
    } else {
      structured = { items: body };
    }
  } else if (body && typeof body === 'object') {
    structured = { ...(body as Record<string, unknown>) };
    if (tool.paging) structured.next_cursor = nextPage ? encodeCursor(tool.name, offset + limit) : null;
  } else {
    structured = {};
  }
  return { content: [{ type: 'text', text: render(tool, structured) }], structuredContent: structured };
}

/** The short text beside the structured result, for clients that show text only. */
function render(tool: ToolDef, structured: Record<string, unknown>): string {
  const json = JSON.stringify(structured);
  const count = Array.isArray(structured.items)
    ? `${structured.items.length} item(s)${structured.next_cursor ? ', more with next_cursor' : ''}: `
    : '';
  const LIMIT = 2000;
  return `${tool.title}: ${count}${json.length > LIMIT ? `${json.slice(0, LIMIT)}… (cut; the whole answer is in structuredContent)` : json}`;
}

export function errorResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

const PARTS_IN_LOC = new Set(['path', 'query', 'body', 'header']);

/** A refused or failed call as a tool error that says why, in the API's own words. */
export function failure(answer: ApiAnswer): ToolResult {
  const { status, body } = answer;
  const detail = body && typeof body === 'object' && 'detail' in body ? body.detail : undefined;
  if (status === 422 && Array.isArray(detail)) {
    const problems = detail.map((d: { loc?: unknown[]; msg?: string }) => {
      const loc = (d.loc ?? []).filter((p, i) => !(i === 0 && PARTS_IN_LOC.has(String(p)))).map(String);
      const field = loc.length > 0 ? loc.join('.').replace(/^offset$/, 'cursor') : 'input';
      return `${field}: ${d.msg ?? 'invalid'}`;
    });
    return errorResult(`Invalid input: ${problems.join('; ')}`);
  }
  const said =
    typeof detail === 'string' ? detail : typeof body === 'string' && body ? body.slice(0, 300) : `HTTP ${status}`;
  if (status === 429)
    return errorResult(
      `${prefixed('Rate limited', said)}${answer.retryAfter ? ` (retry after ${answer.retryAfter} s)` : ''}`,
    );
  if (status >= 500) {
    const wait = answer.retryAfter ? ` in ${answer.retryAfter} s` : ' shortly';
    return errorResult(
      `The service could not answer (${status}${answer.requestId ? `, request ${answer.requestId}` : ''}): ${said}. Retry${wait}.`,
    );
  }
  const why: Record<number, string> = {
    401: 'Not authenticated',
    403: 'Not allowed',
    404: 'Not found',
    409: 'Conflict',
    413: 'Too large',
  };
  return errorResult(prefixed(why[status] ?? `Refused (${status})`, said));
}

/** `said` after its kind (`Not found: ...`), unless it says its kind already (a bare `Not found`). */
function prefixed(kind: string, said: string): string {
  return said.toLowerCase().startsWith(kind.toLowerCase()) ? said : `${kind}: ${said}`;
}
