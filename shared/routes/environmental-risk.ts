/** Environmental risk (docs/connectors.md, "Environmental risk"): the hazards the connectors keep, near the tenant's places. */
import { environmentalRiskAnswer, environmentalRiskQuery } from '../schemas/environmental-risk.js';
import type { RouteDef } from './types.js';

export const environmentalRiskRoute = {
  id: 'environmentalRisk.get',
  method: 'GET',
  path: '/api/v1/environmental-risk',
  handler: 'functions/environmental-risk/get.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'connectors',
  summary: 'Earthquakes, disasters and weather or tsunami alerts near your environments and lines',
  description:
    "For each of your environments (or `environment_id`), the hazards your connectors keep now near its point or its lines: USGS earthquakes of the last `days` (M2.5 and more), GDACS events that went on within them, and NWS alerts in force (those with a warning polygon: zone-coded alerts cannot be placed), each with its distance from the nearest place, and the environment's level (its gravest hazard's). Read from your `usgs-quakes`, `gdacs` and `nws-alerts` connectors' sources (the public ones, kept by any tenant's connector of the public source, for a feed you have none of); nothing is fetched from the publishers here. No hazard is `level: none` and an empty `hazards`, not an error.",
  request: { query: environmentalRiskQuery },
  response: {
    status: 200,
    description: 'The hazards near each environment, the gravest first.',
    schema: environmentalRiskAnswer,
  },
  errors: [404],
  grants: { table: 'read', bucket: 'read' },
} as const satisfies RouteDef;

export const environmentalRiskRoutes: readonly RouteDef[] = [environmentalRiskRoute];
