/**
 * What each route group (a route's `tag`) is about, for the OpenAPI `tags` list. A tag missing
 * here still gets a generic description; the unit test insists every tag in use has a real one.
 */
export const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  platform: 'Health, this API description and its interactive documentation.',
  portal: 'Account portal: log in, register an organisation, plans and API keys.',
  tenants: 'Tenants (organisations) and their configuration. Platform administrators (SUPER_ADMIN) only.',
  users: 'Users of a tenant and their roles.',
  environments: 'Environments (sites) of a tenant.',
  zones: 'Operational zones within an environment.',
  sensors: 'Sensors of an environment and their health.',
  events: 'Events from sensors, other systems and human reporters; ingestion, filtering and the live stream.',
  reports: 'Manual reports from people, passed through the event pipeline.',
  incidents: 'Incidents: voice and public reports, completion, finalisation, response, acknowledgement and escalation.',
  feed: 'Recent activity of a tenant.',
  'audit-logs': 'The audit trail of every change, per tenant.',
  infrastructure: 'Infrastructure data files (KML, KMZ, GeoJSON, shapefile) per environment and their geometries.',
  analytics: 'Threat time series and tenant summaries.',
  'threat-libraries': 'Threat library entries per tenant, grouped by vertical.',
  integrations: 'Integrations with external systems and their connection tests.',
  connectors:
    'Connectors to public feeds (space weather, earthquakes, known exploited vulnerabilities), their status, and lookups in what they keep.',
  drones:
    'Drone dispatch through drone integrations (dock or fleet APIs), and the signed status callbacks of the docks.',
  webhooks: 'Webhook subscriptions to event types.',
  'live-status': 'Real-time platform status.',
  replay: 'Incident timeline reconstruction and point-in-time snapshots.',
  threats: 'Active threats and threat intelligence.',
  assets: 'Protected assets.',
  workflows: 'Response workflows.',
  agents: 'The AI agents and their status.',
  vessels:
    'Vessels from AIS reports (tracks, identity, behaviour: AIS gaps, loitering, speed), dark and loitering vessels, and cable risk.',
  watchlist:
    "The tenant's watchlist: vessels, infrastructure lines, IP addresses and ranges, domains, autonomous systems and countries it watches.",
  'data-lake':
    "Read-only SQL over the tenant's data lake: events, vessel positions and incidents as Parquet (Athena in AWS, DuckDB locally).",
  developer: 'The public developer surface (base path /v1): keys, threat scoring, vessel profiles, cable risk.',
  correlation:
    "Cross-domain correlation: the tenant's sensor events, AIS vessels, feed alerts and reports near an event, an incident or a place and time.",
  mcp: 'The agent tool server (Model Context Protocol) over stateless streamable HTTP: the API as tools for an assistant (docs/mcp.md).',
};

export function tagDescription(tag: string): string {
  return Object.hasOwn(TAG_DESCRIPTIONS, tag) ? (TAG_DESCRIPTIONS[tag] as string) : `Operations of the ${tag} group.`;
}
