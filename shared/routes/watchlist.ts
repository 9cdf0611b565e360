/** The tenant's watchlist: vessels, infrastructure lines, IPs, domains, autonomous systems and countries it watches (docs/watchlist.md). */
import {
  watchlistEntryCreate,
  watchlistEntryPath,
  watchlistEntryResponse,
  watchlistListQuery,
  watchlistScopeQuery,
} from '../schemas/watchlist/index.js';
import { watchlistAlertQuery, watchlistAlertResponse } from '../schemas/watchlist/index.js';
import { MAX_WATCHED_LINE_VERTICES, MAX_WATCHLIST_ENTRIES } from '../vocabulary/watchlist.js';
import type { RouteDef } from './types.js';

const REVISION =
  "Every add and remove moves the tenant's watchlist revision, so what keeps the watchlist compiled reads it again only when it changed.";

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
  response: {
    status: 200,
    description: 'A page of entries.',
    schema: { type: 'array', items: watchlistEntryResponse },
  },
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
  summary:
    'Watch a vessel, an infrastructure line, an IP address or range, a domain, an autonomous system or a country',
  description: `The value is kept normalised (docs/watchlist.md), and a value that is not one of its type is 422 at \`body.value\`. A \`line\` entry keeps the line's name, kind and vertices (at most ${MAX_WATCHED_LINE_VERTICES}, thinned evenly beyond, and it says so), so distances to it need no file read; a line the tenant does not have is 404. The same entity watched twice is 409, naming the entry that watches it; at most ${MAX_WATCHLIST_ENTRIES} entries per tenant (409 beyond). Audited. ${REVISION}`,
  request: { body: watchlistEntryCreate },
  response: { status: 201, description: 'The entry as kept.', schema: watchlistEntryResponse },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write', bucket: 'read' },
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
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const watchlistAlertsRoute = {
  id: 'watchlist.alerts',
  method: 'GET',
  path: '/api/v1/watchlist/alerts',
  handler: 'functions/watchlist/alerts.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'watchlist',
  summary: 'Watchlist alerts: watched entities touched by an event, a vessel position or a threat score, newest first',
  description:
    "An alert is raised when an event names a watched vessel, IP (or one in a watched range) or domain (or a subdomain); when a vessel's position report is of a watched vessel or within 2 km of a watched line (once an hour per entry and vessel); and when a threat score touches a watched entity, its country or ASN (once an hour per entry and target). Each alert is a `watchlist.alert` event (on the bus, the live stream and webhooks; workflows may trigger on it), shown here shaped for the watchlist. An `entry_id` that is not the tenant's is 404, as an unknown one (a removed entry's alerts stay listable). Only alerts within the plan's event retention are shown.",
  request: { query: watchlistAlertQuery },
  response: { status: 200, description: 'A page of alerts.', schema: { type: 'array', items: watchlistAlertResponse } },
  plan: { retention: 'events' },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const watchlistRoutes: readonly RouteDef[] = [
  watchlistListRoute,
  watchlistAddRoute,
  watchlistGetRoute,
  watchlistRemoveRoute,
  watchlistAlertsRoute,
];
