/** Connectors to public feeds (docs/connectors.md), and lookups in what they keep. */
import {
  connectorList,
  connectorListQuery,
  connectorPath,
  connectorScopeQuery,
  indicatorAnswer,
  indicatorQuery,
  kevAnswer,
  kevQuery,
  pollResult,
} from '../schemas/connectors.js';
import { spaceWeatherAnswer, spaceWeatherQuery } from '../schemas/space-weather.js';
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
    'A connector is an integration of kind `feed` (create, change and remove it through `/api/v1/integrations`): it polls a public feed (NOAA SWPC planetary K-index and solar wind, USGS earthquakes, GDACS disaster events, NWS weather and tsunami alerts, CISA Known Exploited Vulnerabilities, your indicator lists, an RPKI export, RIPE RIS Live) or another source of the same format on its schedule, keeps the new and changed records, and raises a `hazard.alert` event when an earthquake, a GDACS event or an NWS warning polygon is near one of your environments or lines, a `bgp.alert` when a prefix or AS of your watchlist is possibly hijacked or leaked. The status says when it last ran and succeeded, what it stored, why it failed, and when it runs next.',
  request: { query: connectorListQuery },
  response: {
    status: 200,
    description: "A page of the tenant's connectors.",
    schema: connectorList,
  },
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
    "Reads the source through the outbound guard (public addresses only, no redirect, 15 s and the feed's size bound at most), keeps the new and changed records (a record already kept is not stored again), raises the hazard and routing alerts not raised before, and records the status. RIS Live, a stream, is read for the connector's `stream_seconds` (10 at most here). A disabled connector polls too. A feed's fault is a `failed` outcome (200), not an error.",
  request: { path: connectorPath, query: connectorScopeQuery },
  response: { status: 200, description: 'What the poll did, and the connector as it is now.', schema: pollResult },
  errors: [404],
  // An RPKI export is kept as one object under feeds/ of the bucket (docs/connectors.md); what a
  // connector read goes to the data-lake queue (its export state under lake-state/).
  // Opens the credentials of the source's URL, when it has any (sealed with the integration's config).
  grants: { table: 'write', bucket: 'write', secrets: 'open', queues: { 'data-lake': 'send' } },
  // The source is read in 15 s at most here (20 s on a schedule), and storing is a few seconds
  // more. The memory is for a global RPKI export polled on demand (about 1 GB at its peak).
  timeoutSeconds: 29,
  memoryMb: 2048,
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

export const threatFeedIndicatorsRoute = {
  id: 'threatFeed.indicators',
  method: 'GET',
  path: '/api/v1/threat-feed/indicators',
  handler: 'functions/connectors/indicators.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'connectors',
  summary: 'Look up an IP, domain, URL, file hash or e-mail address in your indicator lists',
  description:
    'Reads the indicator lists your `stix-indicators` and `csv-indicators` connectors keep (STIX 2.x bundles, CSV or MISP CSV). An IP matches an indicator naming it or a network holding it; a domain matches itself and its parents. Only indicators valid now count (`valid_from` passed, `valid_until` not yet). Nothing found is an empty `matches`, not a 404; a value that is not of its kind is 422 naming the parameter.',
  request: { query: indicatorQuery },
  response: { status: 200, description: 'The matching indicators.', schema: indicatorAnswer },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const spaceWeatherRoute = {
  id: 'spaceWeather.get',
  method: 'GET',
  path: '/api/v1/space-weather',
  handler: 'functions/connectors/space-weather.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'connectors',
  summary: 'Kp, solar wind, and the induced-current risk to your long conductors',
  description:
    "Reads the planetary K-index and the solar wind as your `swpc-kp`, `swpc-plasma` and `swpc-mag` connectors keep them (the public feeds, kept by any tenant's connector of the public source, for one you have none of). `gic` is the geomagnetically induced current risk for long conductors at the current Kp, one level per NOAA G-scale step with the scale's own words. Each of your infrastructure lines is assessed by where it lies: a line reaching poleward of the auroral oval's edge (66 - 2 x Kp degrees geomagnetic) is one level up, one wholly below 40 degrees one level down (docs/connectors.md). Nothing kept yet is `current: null` and `stale: true`, not an error.",
  request: { query: spaceWeatherQuery },
  response: {
    status: 200,
    description: 'Space weather now, and what it means for your lines.',
    schema: spaceWeatherAnswer,
  },
  errors: [404],
  grants: { table: 'read', bucket: 'read' },
} as const satisfies RouteDef;

export const connectorsRoutes: readonly RouteDef[] = [
  connectorsListRoute,
  connectorsPollRoute,
  threatFeedVulnerabilitiesRoute,
  threatFeedIndicatorsRoute,
  spaceWeatherRoute,
];
