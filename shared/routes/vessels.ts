/** Vessels (AIS), their tracks and behaviour, and cable risk (docs/vessels.md). */
import {
  aisStatsQuery,
  aisStatsResponse,
  cableRiskQuery,
  cableRiskResponse,
  darkVesselsQuery,
  darkVesselsResponse,
  trackQuery,
  trackResponse,
  vesselListQuery,
  vesselPath,
  vesselProfile,
  vesselProfileQuery,
  vesselSummary,
} from '../schemas/vessels.js';
import type { RouteDef } from './types.js';

export const vesselsListRoute = {
  id: 'vessels.list',
  method: 'GET',
  path: '/api/v1/vessels',
  handler: 'functions/vessels/list.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'vessels',
  summary: 'Vessels seen recently, or seen in an area',
  description:
    'The vessels whose AIS reports the tenant ingested (`ais.position` and `ais.static` events), most recently seen first. With `lat`, `lon` and `radius_km`: those with a position inside that circle in the window (the area index: one Query per 0.2 degree grid cell the circle touches). By `mmsi` (one read) or by a part of the `name` their static reports gave; the filters combine.',
  request: { query: vesselListQuery },
  response: { status: 200, description: 'The vessels.', schema: { type: 'array', items: vesselSummary } },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const vesselsDarkRoute = {
  id: 'vessels.dark',
  method: 'GET',
  path: '/api/v1/vessels/dark',
  handler: 'functions/vessels/dark.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'vessels',
  summary: 'Dark and loitering vessels',
  description:
    'Vessels silent now for longer than the gap threshold (30 minutes), the AIS gaps that ended in the window (where each began and ended), and the loitering episodes (at most 2 knots within 1 km for 30 minutes or more). Episodes are kept by the vessel tracker moments after the positions are stored.',
  request: { query: darkVesselsQuery },
  response: { status: 200, description: 'Dark and loitering vessels.', schema: darkVesselsResponse },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const vesselsAisStatsRoute = {
  id: 'vessels.aisStats',
  method: 'GET',
  path: '/api/v1/vessels/ais-stats',
  handler: 'functions/vessels/ais-stats.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'vessels',
  summary: 'AIS sentences that did not decode, per day and reason',
  description:
    'Reasons: `checksum`, `malformed`, `truncated`, `incomplete` (parts of a multi-part message missing or out of order), `unsupported_type` (neither a position nor static data), `no_position`. Each such event is stored with `payload.ais_error` and counted once.',
  request: { query: aisStatsQuery },
  response: { status: 200, description: 'The failures.', schema: aisStatsResponse },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const vesselsGetRoute = {
  id: 'vessels.get',
  method: 'GET',
  path: '/api/v1/vessels/{mmsi}',
  handler: 'functions/vessels/get.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'vessels',
  summary: "A vessel's profile: identity, flag, track, behaviour, proximity to infrastructure",
  description:
    "Identity from its static reports (types 5 and 24, and what a type 19 position report carries) and flag state from its MMSI's Maritime Identification Digits; last position and whether it is dark or loitering now; over the window (`hours`, default 24): track summary, AIS gaps, loitering, speeds beyond its type's service speed and position jumps, zone entries, and the nearest approach to the tenant's infrastructure lines. A vessel known from static data only is answered with its identity, `last_seen` and `last_position` null, an empty track, and a note that says so. 404 when the tenant has no AIS data for the MMSI.",
  request: { path: vesselPath, query: vesselProfileQuery },
  response: { status: 200, description: 'The profile.', schema: vesselProfile },
  errors: [404],
  grants: { table: 'read', bucket: 'read' },
  timeoutSeconds: 20,
} as const satisfies RouteDef;

export const vesselsTrackRoute = {
  id: 'vessels.track',
  method: 'GET',
  path: '/api/v1/vessels/{mmsi}/track',
  handler: 'functions/vessels/track.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'vessels',
  summary: "A vessel's positions between two times",
  description:
    "Oldest first, one Query on the vessel's partition. `truncated` says more lie in the range: ask again from the last one.",
  request: { path: vesselPath, query: trackQuery },
  response: { status: 200, description: 'The track.', schema: trackResponse },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const cableRiskRoute = {
  id: 'vessels.cableRisk',
  method: 'GET',
  path: '/api/v1/cable-risk',
  handler: 'functions/vessels/cable-risk.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'vessels',
  summary: 'Cable risk at a point: nearest lines and a 0..100 risk with its factors',
  description:
    "The tenant's infrastructure lines nearest the point, and a risk from five factors (distance to the nearest line; vessel activity, anchoring and loitering, matched threat definitions, and events and incidents within 2 km in the window), the activity factors scaled by the line's nearness. docs/vessels.md gives the weights.",
  request: { query: cableRiskQuery },
  response: { status: 200, description: 'The risk.', schema: cableRiskResponse },
  errors: [404],
  grants: { table: 'read', bucket: 'read' },
  timeoutSeconds: 20,
} as const satisfies RouteDef;

export const vesselsRoutes: readonly RouteDef[] = [
  vesselsListRoute,
  vesselsDarkRoute,
  vesselsAisStatsRoute,
  vesselsGetRoute,
  vesselsTrackRoute,
  cableRiskRoute,
];
