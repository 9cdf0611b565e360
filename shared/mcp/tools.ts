/**
 * The agent tool server's tools, as data (docs/mcp.md): each names the route(s) of the route table
 * it calls, and its input and output schemas are derived from those routes' own schemas
 * (shared/mcp/tool-schemas.ts), so a tool cannot drift from the API it stands for. A call is made
 * over HTTP against the API itself with the caller's credential (shared/mcp/run-tool.ts): the
 * route's authorization, tenancy, validation, rate limits and audit apply by construction.
 *
 * Adding a tool whose route exists is one entry here: name, title, description, route, hints.
 */
import { dataLakeQueryRoute } from '../routes/data-lake.js';
import { developerKeysIssueRoute, developerUsageRoute } from '../routes/developer.js';
import { dronesDispatchRoute } from '../routes/drones.js';
import { eventsListRoute } from '../routes/events.js';
import { incidentsCreateRoute, incidentsListRoute } from '../routes/incidents.js';
import { infrastructureLinesRoute } from '../routes/infrastructure.js';
import {
  connectorsListRoute,
  spaceWeatherRoute,
  threatFeedIndicatorsRoute,
  threatFeedVulnerabilitiesRoute,
} from '../routes/connectors.js';
import { correlationRoute } from '../routes/correlation.js';
import { environmentalRiskRoute } from '../routes/environmental-risk.js';
import { geopoliticalRiskRoute } from '../routes/geopolitical.js';
import { bgpAlertsRoute, internetHealthRoute } from '../routes/internet-health.js';
import { sensorsTelemetryReadRoute } from '../routes/telemetry.js';
import { threatScoreRoute } from '../routes/threat-score.js';
import { threatsListRoute } from '../routes/threats.js';
import type { RouteDef } from '../routes/types.js';
import {
  cableRiskRoute,
  vesselsDarkRoute,
  vesselsGetRoute,
  vesselsListRoute,
  vesselsTrackRoute,
} from '../routes/vessels.js';
import { watchlistAddRoute, watchlistAlertsRoute } from '../routes/watchlist.js';
import { workflowsListRoute, workflowsRunRoute } from '../routes/workflows.js';
import type { JsonSchema } from '../schemas/json-schema.js';
import { workflowCreate } from '../schemas/workflows.js';

/** The hints a client reads before calling; every tool sets all four (an omitted destructiveHint means true). */
export interface ToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/**
 * How a tool pages its answer instead of flooding the context: `route`, the route pages itself
 * (`limit` and `offset`, as every list does; the tool takes `limit` and an opaque `cursor` instead
 * of the offset). The output carries `next_cursor`, null when the answer links no next page.
 */
export type Paging = 'route';

export interface ToolDef {
  name: string;
  title: string;
  /** When to use it, for a model; names the route(s) it calls. */
  description: string;
  /**
   * The route(s) it calls. With one, every call is that route; with several, `pick` chooses one
   * by the input (a composition), and the tool's schemas are the routes' merged.
   */
  routes: readonly [RouteDef, ...RouteDef[]];
  pick?: (input: Readonly<Record<string, unknown>>) => RouteDef;
  hints: ToolHints;
  paging?: Paging;
  /** Input fields the tool sets itself (not in its input schema). */
  fixed?: Readonly<Record<string, string | number | boolean>>;
  /** Input fields of the route the tool leaves out besides `tenant_id` (the key decides the tenant). */
  omit?: readonly string[];
  /** Defaults the tool gives instead of the route's. */
  defaults?: Readonly<Record<string, string | number | boolean>>;
  /** `none`: called without a credential (a public route an API key may not call). */
  credential?: 'none';
  /** Another way to give the route's id field: by a name, found with a list route (one request more). */
  lookup?: ToolLookup;
  /** Other names `tools/call` accepts for it, never listed (the spec's listing spells one differently). */
  aliases?: readonly string[];
}

export interface ToolLookup {
  /** The route's id field it stands in for, e.g. `workflow_id`. */
  field: string;
  /** The input field of the name, and the listed objects' field it matches (case-insensitive, exact). */
  name: string;
  /** The name's schema, from the resource's own. */
  nameSchema: JsonSchema;
  /** The list route that finds it, with the query it sends. */
  route: RouteDef;
  query: Readonly<Record<string, string | number | boolean>>;
  /** What the listed objects are called, for the messages. */
  what: string;
}

const READ: ToolHints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const TOOLS: readonly ToolDef[] = [
  {
    name: 'query_threats',
    title: 'Query threats',
    description:
      "Search your tenant's detected threats (signature matches over events), most recently seen first: by type (event_type: the kind of event their definition matches; or library and definition), by location (zone_id, or environment_id for a whole site), by severity and status. Use it to see what is threatening a site now; use get_threat_score for one target's composite score. Calls GET /api/v1/threats.",
    routes: [threatsListRoute],
    hints: READ,
    paging: 'route',
  },
  {
    name: 'get_incidents',
    title: 'List incidents',
    description:
      "List and filter your tenant's incidents (status, severity, environment, zone; sorted), to see what is open and who handles it. Read one incident whole as the resource gatehouse://incidents/{incident_id}. Calls GET /api/v1/incidents.",
    routes: [incidentsListRoute],
    hints: READ,
    paging: 'route',
  },
  {
    name: 'create_incident',
    title: 'Open an incident',
    description:
      'Open an incident, as a draft or confirmed at once. A confirmed incident starts its SLA clock and notifies the first escalation level (people outside this conversation), so confirm only what a person asked for. Needs the OPERATOR role. Calls POST /api/v1/incidents.',
    routes: [incidentsCreateRoute],
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  {
    name: 'search_vessels',
    title: 'Search vessels',
    description:
      "Find vessels your tenant's AIS feed saw in the last hours: by name (part of it, any case), by MMSI, or within radius_km of a point; most recently seen first, each with its summary (identity, last position, status). For one vessel's behaviour use get_vessel_profile; for its path, get_ais_track. Calls GET /api/v1/vessels.",
    routes: [vesselsListRoute],
    hints: READ,
    paging: 'route',
  },
  {
    name: 'get_cable_risk',
    title: 'Cable proximity risk',
    description:
      "The risk to your tenant's subsea cables and other lines near a point: nearest lines, vessels loitering or going dark near them, the factors and a severity. Use it when a position worries you. Calls GET /api/v1/cable-risk.",
    routes: [cableRiskRoute],
    hints: READ,
  },
  {
    name: 'get_threat_score',
    title: 'Composite threat score',
    description:
      'The 7-factor composite threat score of one target (an IP, domain, vessel MMSI, ...; target and target_type), with the signatures matched and each factor. Calls GET /api/v1/threat-score.',
    routes: [threatScoreRoute],
    hints: READ,
  },
  {
    name: 'get_correlation',
    title: 'Correlate events across domains',
    description:
      "What happened near an event, an incident, or a place and time: your tenant's sensor events, AIS vessel positions, feed and hazard alerts and human reports within radius_km and window_minutes of the anchor, grouped by domain, each saying why it matched (distance, time offset, shared zones) and scored. Give exactly one anchor: event_id, incident_id, or lat and lon together (at: the time with lat and lon, default now); no anchor, or two, is an error. Use it to find what else was going on around something. Calls GET /api/v1/correlation (method in docs/correlation.md).",
    routes: [correlationRoute],
    hints: READ,
  },
  {
    name: 'dispatch_drone',
    title: 'Dispatch a drone',
    description:
      "Send an autonomous drone of one of your tenant's drone integrations to an incident (task, target, altitude). A real aircraft takes off: only when a person asked for it. Needs the OPERATOR role. Calls POST /api/v1/incidents/{incident_id}/drone-dispatches.",
    routes: [dronesDispatchRoute],
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  },
  {
    name: 'query_data_lake',
    title: 'Query the data lake',
    description:
      "Run one read-only SQL SELECT over your tenant's data lake tables (events, incidents, connector records; see docs/data-lake.md), answered as columns and rows, at most max_rows. Calls POST /api/v1/data-lake/query.",
    routes: [dataLakeQueryRoute],
    hints: READ,
  },
  {
    name: 'get_connectors',
    title: 'List data connectors',
    description:
      "Your tenant's data connectors (public feeds and paid sources), each with its feed, state and last poll. Calls GET /api/v1/connectors.",
    routes: [connectorsListRoute],
    hints: READ,
    paging: 'route',
  },
  {
    name: 'provision_free_account',
    title: 'Provision a free account',
    description:
      'Make a new free developer tenant for an email, and its API key (shown once: hand it to the person); the email is mailed. Answered alike whether the email has an account or not: the tenant is always a new one, linked to no account of the address. Called without your credential, as the self-serve route requires: POST /v1/auth/keys with tier free.',
    routes: [developerKeysIssueRoute],
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    fixed: { tier: 'free' },
    omit: ['rate_limit'],
    credential: 'none',
  },
  {
    name: 'get_space_weather',
    title: 'Space weather',
    description:
      "The planetary K-index, solar wind, the NOAA G-scale's induced-current risk and the exposure of your tenant's long conductors by geomagnetic latitude. Calls GET /api/v1/space-weather.",
    routes: [spaceWeatherRoute],
    hints: READ,
  },
  {
    name: 'get_internet_health',
    title: 'Internet health',
    description:
      'How the internet routes to your tenant: each prefix of its watchlist with its RPKI validity per expected origin (the ASNs it watches), its last BGP updates seen by RIPE RIS and its hijack and leak alerts in a window, and whether the RIS and RPKI connectors are fresh. Use get_bgp_alerts to list the alerts themselves. Calls GET /api/v1/internet-health.',
    routes: [internetHealthRoute],
    hints: READ,
  },
  {
    name: 'get_geopolitical_risk',
    title: 'Geopolitical risk overlay',
    description:
      "Travel advisories (US State Department, Global Affairs Canada, your own list) and sanctions programmes (OFAC SDN) laid over your tenant's environments (by the country set on each), the vessels it sees or watches (flag from the MMSI; sanctioned when OFAC lists their MMSI or IMO) and its watched IP addresses (offline IP country data). Pass country (ISO alpha-2) to ask about one country. Calls GET /api/v1/geopolitical-risk.",
    routes: [geopoliticalRiskRoute],
    hints: READ,
  },
  {
    name: 'get_vessel_profile',
    title: 'Vessel behaviour profile',
    description:
      "One vessel's behavioural profile by MMSI: identity, flag, last position, AIS gaps (going dark), loitering, speed anomalies and infrastructure it came near, over the last hours. The same profile as GET /v1/vessel-profile. Calls GET /api/v1/vessels/{mmsi}.",
    routes: [vesselsGetRoute],
    hints: READ,
  },
  {
    name: 'list_cable_systems',
    title: 'List cable systems',
    description:
      "The cable systems in your tenant's infrastructure registry (the lines of its uploaded infrastructure files tagged subsea_cable; pass kind for pipelines, power lines or all), with length and bounding box. It is your registry, not a global one. Calls GET /api/v1/infrastructure/lines.",
    routes: [infrastructureLinesRoute],
    hints: READ,
    paging: 'route',
    defaults: { kind: 'subsea_cable' },
  },
  {
    name: 'get_ais_track',
    title: 'Historical AIS track',
    description:
      "A vessel's AIS positions between two dates (at most limit, oldest first; truncated says more exist). Calls GET /api/v1/vessels/{mmsi}/track.",
    routes: [vesselsTrackRoute],
    hints: READ,
  },
  {
    name: 'get_dark_vessels',
    title: 'Dark and loitering vessels',
    description:
      "Vessels of your tenant's AIS feed dark now (silent past their reporting interval), and AIS gaps and loitering episodes that ended in the last hours. Calls GET /api/v1/vessels/dark.",
    routes: [vesselsDarkRoute],
    hints: READ,
  },
  {
    name: 'query_threat_feed',
    title: 'Threat feed lookup',
    description:
      'Look up an indicator (ip, domain, url, hash or email) in the threat intelligence lists, or known-exploited vulnerabilities (cve or product) in CISA KEV. Give one kind of lookup per call. Calls GET /api/v1/threat-feed/indicators, or GET /api/v1/threat-feed/vulnerabilities when cve or product is given.',
    routes: [threatFeedIndicatorsRoute, threatFeedVulnerabilitiesRoute],
    pick: (input) =>
      input.cve !== undefined || input.product !== undefined
        ? threatFeedVulnerabilitiesRoute
        : threatFeedIndicatorsRoute,
    hints: READ,
  },
  {
    name: 'get_environmental_risk',
    title: 'Environmental hazards near your sites',
    description:
      "Natural hazards near each of your tenant's environments and its infrastructure lines, from its connectors: recent earthquakes (USGS), disasters under way (GDACS: cyclones, floods, volcanoes, droughts, wildfires) and weather and tsunami warnings in force (NWS), each with its distance and a level per environment. Use it when asked what threatens a site from nature. Calls GET /api/v1/environmental-risk.",
    routes: [environmentalRiskRoute],
    hints: READ,
  },
  {
    name: 'search_events',
    title: 'Search events',
    description:
      "Search your tenant's events, newest first, by words in their text (q: every word must appear in the description, type, source or a payload value at any depth, case-insensitive) and filters (type, source, environment, zone, score, dates). q filters a bounded read of the newest events in the range, not an index: narrow by dates for old events. Calls GET /api/v1/events.",
    routes: [eventsListRoute],
    hints: READ,
    paging: 'route',
  },
  {
    name: 'get_bgp_alerts',
    title: 'BGP hijack and leak alerts',
    description:
      'Possible route hijacks and leaks of the prefixes and ASNs your tenant watches, newest first, as the RIS Live connector raised them (the rule that fired, the origin seen, the AS path, RPKI state), filtered by kind, prefix, ASN or since. Each is a possibility for a person to look at, not a verdict. Calls GET /api/v1/internet-health/bgp-alerts.',
    routes: [bgpAlertsRoute],
    hints: READ,
    paging: 'route',
  },
  {
    name: 'get_sensor_data',
    title: 'Raw sensor telemetry',
    description:
      'Raw fibre-optic sensor telemetry frames of one sensor between two times (from, to), optionally a channel range; at most max_frames, with next_from to continue. Calls GET /api/v1/sensors/{sensor_id}/telemetry.',
    routes: [sensorsTelemetryReadRoute],
    hints: READ,
  },
  {
    name: 'add_watchlist',
    title: 'Add to the watchlist',
    description:
      "Add a vessel (MMSI), a cable line, an IP, a domain or another entity to your tenant's watchlist: sightings and matches of it raise watchlist alerts. Needs the OPERATOR role. Calls POST /api/v1/watchlist/entries.",
    routes: [watchlistAddRoute],
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  {
    name: 'get_watchlist_alerts',
    title: 'Watchlist alerts',
    description:
      "Alerts raised for your tenant's watchlisted entities, newest first, by entry, entity type, trigger or dates. Calls GET /api/v1/watchlist/alerts.",
    routes: [watchlistAlertsRoute],
    hints: READ,
    paging: 'route',
    // The spec's listing says `get_watchlist_alertsLabel` (a label's suffix run into the name):
    // a client built from it still calls this tool; the list shows the contract's name only.
    aliases: ['get_watchlist_alertsLabel'],
  },
  {
    name: 'run_playbook',
    title: 'Run a response playbook',
    description:
      "Run one of your tenant's response playbooks (manual workflows) by its name or workflow_id, for an incident or event: its steps may notify people, change incidents and call integrations. Answers the run as started (it continues in the background). Needs the OPERATOR role. Calls POST /api/v1/workflows/{workflow_id}/run; a name is found first with GET /api/v1/workflows?trigger_type=manual.",
    routes: [workflowsRunRoute],
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    lookup: {
      field: 'workflow_id',
      name: 'name',
      nameSchema: {
        ...workflowCreate.properties.name,
        description: "The playbook's name (exact, any case), instead of workflow_id.",
      },
      route: workflowsListRoute,
      query: { trigger_type: 'manual', limit: 200 },
      what: 'playbook',
    },
  },
  {
    name: 'get_api_usage',
    title: 'API usage and quota',
    description:
      "Your key's developer tier, its rate a minute and its calls this month against the monthly quota. Calls GET /v1/usage (the call itself counts).",
    routes: [developerUsageRoute],
    hints: READ,
  },
];

/**
 * The spec's 27 tools. Four are built on other branches and join the catalogue when merged (one
 * entry each above): get_environmental_risk, get_internet_health, get_bgp_alerts,
 * get_geopolitical_risk. test/e2e/mcp.test.ts names those still missing.
 */
export const SPEC_TOOL_NAMES = [
  'query_threats',
  'get_incidents',
  'create_incident',
  'search_vessels',
  'get_cable_risk',
  'get_threat_score',
  'get_correlation',
  'dispatch_drone',
  'query_data_lake',
  'get_connectors',
  'provision_free_account',
  'get_space_weather',
  'get_internet_health',
  'get_vessel_profile',
  'get_geopolitical_risk',
  'list_cable_systems',
  'get_ais_track',
  'get_dark_vessels',
  'query_threat_feed',
  'get_environmental_risk',
  'search_events',
  'get_bgp_alerts',
  'get_sensor_data',
  'add_watchlist',
  'get_watchlist_alerts',
  'run_playbook',
  'get_api_usage',
] as const;

const byName = new Map(TOOLS.flatMap((t) => [t.name, ...(t.aliases ?? [])].map((name) => [name, t] as const)));

/** The tool of a name, or of one of its aliases. */
export function toolNamed(name: string): ToolDef | undefined {
  return byName.get(name);
}
