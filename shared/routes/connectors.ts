/** Connectors to public feeds (docs/connectors.md), and lookups in what they keep. */
import { connectorListQuery, connectorPath, connectorResponse, connectorScopeQuery, kevAnswer, kevQuery, pollResult } from '../schemas/connectors.js';
import type { RouteDef } from './types.js';

export const connectorsListRoute = {
  id: 'connectors.list',
  method: 'GET',
  path: '/api/v1/connectors',
  handler: 'functions/connectors/list.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'connectors',
  summary: "The tenant's connectors to public feeds, with their status",
  description:
    'A connector is an integration of kind `feed` (create, change and remove it through `/api/v1/integrations`): it polls a public feed (NOAA SWPC planetary K-index, USGS earthquakes, CISA Known Exploited Vulnerabilities) or another source of the same format on its schedule, keeps the new and changed records, and raises a `hazard.alert` event when an earthquake is near one of your environments or lines. The status says when it last ran and succeeded, what it stored, why it failed, and when it runs next.',
  request: { query: connectorListQuery },
  response: { status: 200, description: 'Every connector of the tenant (at most 50 integrations), oldest first.', schema: { type: 'array', items: connectorResponse } },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const connectorsPollRoute = {
  id: 'connectors.poll',
  method: 'POST',
  path: '/api/v1/connectors/{connector_id}/poll',
  handler: 'functions/connectors/poll.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'connectors',
  summary: 'Poll a connector now, as its schedule would',
  description:
    "Reads the source through the outbound guard (public addresses only, no redirect, 15 s and the feed's size bound at most), keeps the new and changed records (a record already kept is not stored again), raises the hazard alerts not raised before, and records the status. A disabled connector polls too. A feed's fault is a `failed` outcome (200), not an error.",
  request: { path: connectorPath, query: connectorScopeQuery },
  response: { status: 200, description: 'What the poll did, and the connector as it is now.', schema: pollResult },
  errors: [404],
  grants: { table: 'write', bucket: 'read' },
  // The source is read in 15 s at most here (20 s on a schedule), and storing is a few seconds more.
  timeoutSeconds: 29,
  memoryMb: 512,
} as const satisfies RouteDef;

export const threatFeedVulnerabilitiesRoute = {
  id: 'threatFeed.vulnerabilities',
  method: 'GET',
  path: '/api/v1/threat-feed/vulnerabilities',
  handler: 'functions/connectors/vulnerabilities.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'connectors',
  summary: 'Look up known exploited vulnerabilities by CVE or product',
  description:
    "Reads CISA's Known Exploited Vulnerabilities catalogue as your `cisa-kev` connectors keep it (the public catalogue, kept by any tenant's connector of the public source, when you have none). A CVE that is not in the catalogue is an empty `matches`, not a 404.",
  request: { query: kevQuery },
  response: { status: 200, description: 'The matching entries.', schema: kevAnswer },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const connectorsRoutes: readonly RouteDef[] = [connectorsListRoute, connectorsPollRoute, threatFeedVulnerabilitiesRoute];
