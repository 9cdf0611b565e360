/** Cross-domain correlation around an event, an incident or a place and time (docs/correlation.md). */
import { correlationQuery, correlationResponse } from '../schemas/correlation.js';
import type { RouteDef } from './types.js';

export const correlationRoute = {
  id: 'correlation.get',
  method: 'GET',
  path: '/api/v1/correlation',
  handler: 'functions/correlation/get.ts',
  access: 'VIEWER',
  tenant: 'credential',
  tag: 'correlation',
  summary: 'What happened near an event, an incident, or a place and time, across sensors, AIS, feeds and reports',
  description:
    "Give one anchor: `event_id`, `incident_id`, or `lat` and `lon` (with `at`, default now). Your tenant's events (sensor, feed and hazard alerts, human reports) and AIS vessel positions within `radius_km` and `window_minutes` of it, grouped by domain, each with its distance, time offset, shared zones and a score. Reads are bounded (2,000 events, the AIS area index); `truncated` says when a bound was reached. 404 when the anchor is unknown (or of another tenant); 422 for no anchor, two, or an anchor without a location.",
  request: { query: correlationQuery },
  response: { status: 200, description: 'The matches, grouped.', schema: correlationResponse },
  plan: { retention: 'events' },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const correlationRoutes: readonly RouteDef[] = [correlationRoute];
