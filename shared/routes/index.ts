/**
 * THE route table: every HTTP route of the service, as data, assembled from one file per route
 * group. The CDK stack creates one Lambda per entry, the local server mounts every entry, the
 * OpenAPI document is generated from it, and the tests check each entry has a handler, a CDK
 * route, an OpenAPI operation and a test.
 */
import { analyticsRoutes } from './analytics.js';
import { assetsRoutes } from './assets.js';
import { dataLakeRoutes } from './data-lake.js';
import { correlationRoutes } from './correlation.js';
import { mcpRoutes } from './mcp.js';
import { auditRoutes } from './audit.js';
import { developerRoutes } from './developer.js';
import { dronesRoutes } from './drones.js';
import { environmentsRoutes } from './environments.js';
import { eventsRoutes } from './events.js';
import { incidentsRoutes } from './incidents.js';
import { infrastructureRoutes } from './infrastructure.js';
import { integrationsRoutes } from './integrations.js';
import { connectorsRoutes } from './connectors.js';
import { environmentalRiskRoutes } from './environmental-risk.js';
import { internetHealthRoutes } from './internet-health.js';
import { geopoliticalRoutes } from './geopolitical.js';
import { operationsRoutes } from './operations.js';
import { platformRoutes } from './platform.js';
import { portalRoutes } from './portal.js';
import { tenantsRoutes } from './tenants.js';
import { threatLibrariesRoutes } from './threat-libraries.js';
import { threatScoreRoutes } from './threat-score.js';
import { threatsRoutes } from './threats.js';
import type { RouteDef } from './types.js';
import { sensorsRoutes } from './sensors.js';
import { telemetryRoutes } from './telemetry.js';
import { usersRoutes } from './users.js';
import { vesselsRoutes } from './vessels.js';
import { watchlistRoutes } from './watchlist.js';
import { webhooksRoutes } from './webhooks.js';
import { workflowsRoutes } from './workflows.js';
import { zonesRoutes } from './zones.js';

export type { Access, HttpMethod, Role, RouteDef, RouteGrants } from './types.js';
export { ROLES } from './types.js';

export const ROUTES: readonly RouteDef[] = [
  ...platformRoutes,
  ...portalRoutes,
  ...usersRoutes,
  ...tenantsRoutes,
  ...environmentsRoutes,
  ...zonesRoutes,
  ...sensorsRoutes,
  ...telemetryRoutes,
  ...assetsRoutes,
  ...infrastructureRoutes,
  ...eventsRoutes,
  ...incidentsRoutes,
  ...threatLibrariesRoutes,
  ...integrationsRoutes,
  ...dronesRoutes,
  ...webhooksRoutes,
  ...auditRoutes,
  ...analyticsRoutes,
  ...threatsRoutes,
  ...threatScoreRoutes,
  ...workflowsRoutes,
  ...operationsRoutes,
  ...vesselsRoutes,
  ...watchlistRoutes,
  ...connectorsRoutes,
  ...environmentalRiskRoutes,
  ...internetHealthRoutes,
  ...geopoliticalRoutes,
  ...developerRoutes,
  ...dataLakeRoutes,
  ...correlationRoutes,
  ...mcpRoutes,
];

const byId = new Map(ROUTES.map((r) => [r.id, r]));

/** The route with this id; throws for an unknown id, a programming error. */
export function routeById(id: string): RouteDef {
  const route = byId.get(id);
  if (!route) throw new Error(`unknown route id: ${id}`);
  return route;
}
