/** The tenant's watchlist: vessels, infrastructure lines, IPs, domains, autonomous systems and countries it watches (docs/watchlist.md). */
import {
  watchlistEntryCreate,
  watchlistEntryPath,
  watchlistEntryResponse,
  watchlistListQuery,
  watchlistScopeQuery,
} from '../schemas/watchlist.js';
import { MAX_WATCHED_LINE_VERTICES, MAX_WATCHLIST_ENTRIES } from '../vocabulary/watchlist.js';
import type { RouteDef } from './types.js';

const REVISION = "Every add and remove moves the tenant's watchlist revision, so what keeps the watchlist compiled reads it again only when it changed.";

export const watchlistListRoute = {
  id: 'watchlist.list',
  method: 'GET',
  path: '/api/v1/watchlist/entries',
  handler: 'functions/watchlist/list.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'watchlist',
  summary: "The tenant's watchlist entries, newest first",
  description: '`entity_type` keeps the entries of one type.',
  request: { query: watchlistListQuery },
  response: { status: 200, description: 'A page of entries.', schema: { type: 'array', items: watchlistEntryResponse } },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const watchlistAddRoute = {
  id: 'watchlist.add',
  method: 'POST',
  path: '/api/v1/watchlist/entries',
  handler: 'functions/watchlist/add.ts',
  access: 'OPERATOR',
  tenant: 'body',
  tag: 'watchlist',
  summary: 'Watch a vessel, an infrastructure line, an IP address or range, a domain, an autonomous system or a country',
  description: `The value is kept normalised (docs/watchlist.md), and a value that is not one of its type is 422 at \`body.value\`. A \`line\` entry keeps the line's name, kind and vertices (at most ${MAX_WATCHED_LINE_VERTICES}, thinned evenly beyond, and it says so), so distances to it need no file read; a line the tenant does not have is 404. The same entity watched twice is 409, naming the entry that watches it; at most ${MAX_WATCHLIST_ENTRIES} entries per tenant (409 beyond). Audited. ${REVISION}`,
  request: { body: watchlistEntryCreate },
  response: { status: 201, description: 'The entry as kept.', schema: watchlistEntryResponse },
  errors: [404, 409],
  grants: { table: 'write', bucket: 'read' },
} as const satisfies RouteDef;

export const watchlistGetRoute = {
  id: 'watchlist.get',
  method: 'GET',
  path: '/api/v1/watchlist/entries/{entry_id}',
  handler: 'functions/watchlist/get.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'watchlist',
  summary: 'A watchlist entry',
  request: { path: watchlistEntryPath, query: watchlistScopeQuery },
  response: { status: 200, description: 'The entry.', schema: watchlistEntryResponse },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const watchlistRemoveRoute = {
  id: 'watchlist.remove',
  method: 'DELETE',
  path: '/api/v1/watchlist/entries/{entry_id}',
  handler: 'functions/watchlist/remove.ts',
  access: 'OPERATOR',
  tenant: 'query',
  tag: 'watchlist',
  summary: 'Stop watching an entry',
  description: `Audited; the entity may be watched again by a new entry. ${REVISION}`,
  request: { path: watchlistEntryPath, query: watchlistScopeQuery },
  response: { status: 204, description: 'Removed.' },
  errors: [404, 409],
  grants: { table: 'write' },
} as const satisfies RouteDef;

export const watchlistRoutes: readonly RouteDef[] = [watchlistListRoute, watchlistAddRoute, watchlistGetRoute, watchlistRemoveRoute];
