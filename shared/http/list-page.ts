/**
 * Paging of every list route, in one place (docs/architecture.md, "Lists"). The route's function
 * is asked for one item more than the page (`limit + 1`: cheap, never a count), so the chain knows
 * whether another page follows; it answers the page itself, with:
 * - `next_offset` in a page object (the offset of the next page, or null on the last);
 * - `Link: <...>; rel="next"` (RFC 8288) when a next page follows: the request's own path and
 *   query with the next offset, root-relative;
 * - `X-Total-Count` where the page object carries `total` (its count is cheap there).
 * The audit log pages by `skip` (the spec's name); `offset` is accepted there as its alias.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { RequestValidationError } from '../errors.js';
import { LIST_HEADERS, type ListPaging } from '../routes/paging.js';
import type { Reply } from './reply.js';

type Query = Record<string, unknown>;

/** A page of a list whose whole is at hand (bounded, built in memory): its slice and its count. */
export const pageOfWhole = <T>(all: readonly T[], page: { limit: number; offset: number }) => ({
  items: all.slice(page.offset, page.offset + page.limit),
  total: all.length,
  limit: page.limit,
  offset: page.offset,
});

/** Runs `run` for one more item than the page and answers the page, with its way to the next. */
export async function pageOfList(paging: ListPaging, event: APIGatewayProxyEvent, run: () => Promise<Reply>) {
  const query = (event.queryStringParameters ?? {}) as Query;
  const sent = sentQuery(event);
  const offsetName = offsetAlias(paging, query, sent);
  const limit = query.limit as number;
  const start = query[paging.offsetName] as number;
  query.limit = limit + 1;
  let reply: Reply;
  try {
    reply = await run();
  } finally {
    query.limit = limit;
  }
  if ((reply.status ?? 200) !== 200 || reply.json === undefined) return reply;
  const body = reply.json as unknown[] | { items?: unknown[]; total?: unknown };
  const items = Array.isArray(body) ? body : body.items;
  if (!Array.isArray(items)) return reply;
  const more = items.length > limit;
  const next = more && start + limit <= paging.maxOffset ? start + limit : null;
  const page = items.slice(0, limit);
  const headers: Record<string, string> = { ...reply.headers };
  if (next !== null) headers[LIST_HEADERS.next] = `<${nextUrl(event, sent, offsetName, next)}>; rel="next"`;
  if (Array.isArray(body)) return { ...reply, json: page, headers };
  const { items: _all, ...rest } = body;
  if (typeof rest.total === 'number') headers[LIST_HEADERS.total] = String(rest.total);
  return { ...reply, json: { items: page, ...rest, limit, next_offset: next }, headers };
}

/** The query as the client sent it (before coercion and defaults), each name with its values. */
function sentQuery(event: APIGatewayProxyEvent): [string, string[]][] {
  const multi = event.multiValueQueryStringParameters;
  if (multi) return Object.entries(multi).map(([name, values]) => [name, values ?? []]);
  return Object.entries(event.queryStringParameters ?? {}).map(([name, value]) => [name, [String(value)]]);
}

/**
 * The name the client paged by: on the audit log `offset` is an alias of `skip` (both given with
 * different values is a 422 naming both); the route's function reads `skip`.
 */
function offsetAlias(paging: ListPaging, query: Query, sent: [string, string[]][]): string {
  if (paging.offsetName === 'offset' || query.offset === undefined) return paging.offsetName;
  const skipSent = sent.some(([name]) => name === 'skip');
  if (skipSent && query.skip !== query.offset) {
    const msg = '`offset` is an alias of `skip`: give one of them, or the same value in both';
    throw new RequestValidationError([
      { loc: ['query', 'skip'], msg, type: 'value_error' },
      { loc: ['query', 'offset'], msg, type: 'value_error' },
    ]);
  }
  query.skip = query.offset;
  delete query.offset;
  return 'offset';
}

/** The request's own path (behind the gateway's stage, if any) and query, at `offset`. */
function nextUrl(event: APIGatewayProxyEvent, sent: [string, string[]][], offsetName: string, offset: number) {
  const params = new URLSearchParams();
  for (const [name, values] of sent) for (const value of values) params.append(name, value);
  // In its place when the client sent it, at the end otherwise.
  params.set(offsetName, String(offset));
  return `${event.requestContext?.path ?? event.path}?${params.toString()}`;
}
