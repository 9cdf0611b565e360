/** Analytics: a threat time series and a tenant summary, read from counters kept by a stream worker. */
import {
  analyticsSummaryQuery,
  analyticsSummaryResponse,
  analyticsThreatsQuery,
  MAX_WINDOW_DAYS,
  threatTimeSeriesResponse,
} from '../schemas/analytics.js';
import type { RouteDef } from './types.js';

const WINDOWS =
  `The window is \`from_date\` (default: 30 days before \`to_date\`) to \`to_date\` (default: now), at most ${MAX_WINDOW_DAYS} days, widened to whole UTC hours (\`from_date\` rounded down, \`to_date\` up; at least one hour); the answer states the window it used and \`timezone: "UTC"\`. ` +
  'Figures come from counters a stream worker keeps as events and incidents are stored and change, each counted exactly once, about a second behind; the time of a query does not depend on how many events there are. Events stored before the counters were deployed are not counted (docs/analytics.md).';

export const analyticsThreatsRoute = {
  id: 'analytics.threats',
  method: 'GET',
  path: '/api/v1/analytics/threats',
  handler: 'functions/analytics/threats.ts',
  access: 'VIEWER',
  tenant: 'query',
  plan: { feature: 'analytics' },
  tag: 'analytics',
  summary: "The tenant's events over time, in UTC hours, days or ISO weeks, by zone, environment and type",
  description:
    `Events are placed by when they occurred (\`occurred_at\`, UTC), so a late or back-filled event lands in its own hour. Every bucket of the window is listed, empty ones with \`count\` 0; days are UTC days and weeks ISO weeks from Monday 00:00 UTC, the first and last bucket cut to the window. \`avg_threat_score\` is the mean of the events' scores as computed at ingest (an operator's later override is not followed). ` +
    "A `zone_id` counts the events that matched its geofence, an `environment_id` those of that environment; a zone or environment that is not the tenant's is 404. " +
    WINDOWS,
  request: { query: analyticsThreatsQuery },
  response: { status: 200, description: 'ThreatTimeSeriesResponse.', schema: threatTimeSeriesResponse },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const analyticsSummaryRoute = {
  id: 'analytics.summary',
  method: 'GET',
  path: '/api/v1/analytics/summary',
  handler: 'functions/analytics/summary.ts',
  access: 'VIEWER',
  tenant: 'query',
  plan: { feature: 'analytics' },
  tag: 'analytics',
  summary: "A tenant's incidents, response times, SLA compliance and threats by type over a window",
  description:
    "Incidents are those created in the window, counted by their status and severity now. Times to acknowledge and to resolve are each incident's `time_to_acknowledge_seconds` and `time_to_resolve_seconds` (from confirmation, or creation, to the first acknowledgement or resolution), their median and 90th percentile exact, by the nearest-rank method. SLA compliance is met / (met + breached) as the SLA clock recorded it. Threats are the events that occurred in the window, by type. " +
    WINDOWS,
  request: { query: analyticsSummaryQuery },
  response: { status: 200, description: 'AnalyticsSummaryResponse.', schema: analyticsSummaryResponse },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const analyticsRoutes: readonly RouteDef[] = [analyticsThreatsRoute, analyticsSummaryRoute];
