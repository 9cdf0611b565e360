/**
 * Which routes are lists, and how they page, read from their schemas (docs/architecture.md,
 * "Lists"): a GET whose query has `limit` and `offset` (the audit log's `skip`) and whose answer
 * is an array (the spec's lists) or a page object `{items, total?, limit, offset, next_offset}`.
 * The handler chain pages them (shared/http/list-page.ts), the OpenAPI document names their
 * headers, and test/e2e/list-conventions.test.ts walks them.
 */
import type { JsonSchema } from '../schemas/json-schema.js';
import type { RouteDef } from './types.js';

export interface ListPaging {
  /** A bare array (a list the spec returns as one) or the page object. */
  shape: 'array' | 'page';
  /** The query parameter that skips items: `offset`, or `skip` where the spec names it (the audit log). */
  offsetName: 'offset' | 'skip';
  /** The largest offset the route accepts: past it there is no next page to link to. */
  maxOffset: number;
  /** The page object carries `total` (the count is cheap there): sent as `X-Total-Count` too. */
  counted: boolean;
}

/** The headers a list's answer may carry (RFC 8288 `Link` to the next page; the count where cheap). */
export const LIST_HEADERS = { next: 'Link', total: 'X-Total-Count' } as const;

type Props = Readonly<Record<string, JsonSchema>>;

const propertiesOf = (schema: JsonSchema | undefined): Props =>
  (schema as { properties?: Props } | undefined)?.properties ?? {};

/** How `route` pages, or undefined when it is not a list. */
export function listPaging(route: RouteDef): ListPaging | undefined {
  if (route.method !== 'GET') return undefined;
  const query = propertiesOf(route.request?.query);
  const offsetName = query.skip ? 'skip' : query.offset ? 'offset' : undefined;
  if (!query.limit || !offsetName) return undefined;
  const body = route.response.schema as { type?: unknown } | undefined;
  const fields = propertiesOf(body);
  const shape = body?.type === 'array' ? 'array' : fields.items ? 'page' : undefined;
  if (!shape) return undefined;
  const maxOffset = (query[offsetName] as { maximum?: number }).maximum ?? Number.MAX_SAFE_INTEGER;
  return { shape, offsetName, maxOffset, counted: shape === 'page' && 'total' in fields };
}

/** The response headers `route` documents as a list: `Link`, and `X-Total-Count` where counted. */
export function listHeaders(route: RouteDef): string[] {
  const paging = listPaging(route);
  if (!paging) return [];
  return paging.counted ? [LIST_HEADERS.next, LIST_HEADERS.total] : [LIST_HEADERS.next];
}
