/** Active threats: what the tenant's threat definitions match now, and dismissing them. */
import { threatDismiss, threatListQuery, threatPath, threatResponse, threatScopeQuery } from '../schemas/threats.js';
import type { RouteDef } from './types.js';
import { THREAT_FILTER_READ } from '../vocabulary/threats.js';

export const threatsListRoute = {
  id: 'threats.list',
  method: 'GET',
  path: '/api/v1/threats',
  handler: 'functions/threats/list.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'threats',
  summary: 'Active threats: threat definitions matching now, most recently seen first',
  description:
    "A threat is one threat-library definition matching in one zone (or outside zones): how many events matched, first and last seen, the incidents they opened. By default the active ones seen in the last 24 hours; `within_hours` looks further back, `status=dismissed` or `all` shows dismissed ones. Kept from the events' `matched_signatures` by a consumer of the table's stream: an event shows here moments after it is stored. Read from an index by last-seen time: one Query over the window. " +
    'By type: `event_type` keeps the threats whose definition matches that event type; by location: `zone_id`, or `environment_id` for every zone of a site (threats outside zones have no site). ' +
    `These two read the window's threats (at most ${THREAT_FILTER_READ}) and keep those that match. ` +
    "A `zone_id`, `environment_id` or `library_id` that is not the tenant's is 404.",
  request: { query: threatListQuery },
  response: { status: 200, description: 'A page of threats.', schema: { type: 'array', items: threatResponse } },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const threatsGetRoute = {
  id: 'threats.get',
  method: 'GET',
  path: '/api/v1/threats/{threat_id}',
  handler: 'functions/threats/get.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'threats',
  summary: 'A threat',
  request: { path: threatPath, query: threatScopeQuery },
  response: { status: 200, description: 'The threat.', schema: threatResponse },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const threatsDismissRoute = {
  id: 'threats.dismiss',
  method: 'POST',
  path: '/api/v1/threats/{threat_id}/dismiss',
  handler: 'functions/threats/dismiss.ts',
  access: 'OPERATOR',
  tenant: 'query',
  tag: 'threats',
  summary: 'Dismiss a threat until it matches again',
  description: 'Audited with the reason. A later matching event makes it active again (its count goes on).',
  request: { path: threatPath, query: threatScopeQuery, body: threatDismiss },
  response: { status: 200, description: 'The threat, dismissed.', schema: threatResponse },
  errors: [404],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const threatsRoutes: readonly RouteDef[] = [threatsListRoute, threatsGetRoute, threatsDismissRoute];
