/**
 * The feeds a connector may poll, one entry each (docs/connectors.md, "Adding a feed"): its family
 * (what a poll does with its records besides keeping them), its parser (a module of shared/feeds),
 * its public source, the bound of a document (the feed's size with room to grow), the minutes
 * between polls unless the connector says (its schedule), how long a record is kept (null: while
 * the source lists it), and the connector settings it takes with their defaults (its config
 * schema: the settings' own schemas are the `feed` integration's, shared/schemas/integrations.ts).
 *
 * Everything else is derived from it: the feed names of the schemas and the OpenAPI document, the
 * family lists, the settings a connector may name, its schedule and poller
 * (shared/domain/connectors/connector-settings.ts), the parsers of a poll
 * (shared/domain/connectors/poll-feed.ts). Data only, and below the schemas, so that the routes
 * that only show or configure connectors carry no parser.
 */

/**
 * What a poll does with a feed's records besides keeping them (shared/domain/connectors/
 * poll-connector.ts): `hazard` raises hazard alerts and feeds environmental risk; `advisory` raises
 * travel-advisory alerts; `routing` is polled by internet health (a stream or an export, not
 * records); the others are kept for their reads (space weather, the threat feed, sanctions).
 */
export const FEED_FAMILIES = ['space-weather', 'hazard', 'threat-intel', 'routing', 'advisory', 'sanctions'] as const;
export type FeedFamily = (typeof FEED_FAMILIES)[number];

/** The settings of a `feed` integration beyond `feed`, `url` and `interval_minutes`. */
export interface FeedSettings {
  radius_km?: number | null;
  min_magnitude?: number;
  min_alert_level?: 'green' | 'orange' | 'red';
  stream_seconds?: number;
  provides_transit?: boolean;
}
export type FeedSetting = keyof FeedSettings;
export const FEED_SETTINGS = [
  'radius_km',
  'min_magnitude',
  'min_alert_level',
  'stream_seconds',
  'provides_transit',
] as const satisfies readonly FeedSetting[];

export interface FeedCatalogEntry {
  family: FeedFamily;
  /** The module of shared/feeds whose parser reads it (`usgs-quakes`: shared/feeds/usgs-quakes.ts). */
  parser: string;
  /** Null for a tenant's own lists: a connector of theirs names its `url`. */
  defaultUrl: string | null;
  /** What the poll asks for (`accept`). */
  accept: string;
  /** At most this much of a document is read; a longer one fails the poll. */
  maxBytes: number;
  /** Minutes between polls unless the connector says: its schedule. */
  everyMinutes: number;
  keepSeconds: number | null;
  /** The settings a connector of it may name, each with its default (null: none unless named). */
  settings: FeedSettings;
  /** A stream, not a document (RIS Live): a poll reads it for a bounded time and size, and either bound is its normal end. */
  stream?: true;
  /** Its document needs the 2 GB poller (`connector-poll-large`, shared/workers.ts): an RPKI export. */
  largePoll?: true;
}

const MB = 1024 * 1024;
const DAY_S = 86_400;
const JSON_TYPE = 'application/json';

export const FEED_CATALOG = {
  'swpc-kp': {
    family: 'space-weather',
    parser: 'swpc-kp',
    defaultUrl: 'https://services.swpc.noaa.gov/products/noaa-planetary-k-index.json',
    accept: JSON_TYPE,
    maxBytes: 2 * MB,
    everyMinutes: 15,
    keepSeconds: 90 * DAY_S,
    settings: {},
  },
  // Solar wind: the two-hour products (the same format as the 7-day ones the parser was tested on,
  // a tenth of the records to read back each poll); every 15 minutes they overlap.
  'swpc-plasma': {
    family: 'space-weather',
    parser: 'swpc-solar-wind',
    defaultUrl: 'https://services.swpc.noaa.gov/products/solar-wind/plasma-2-hour.json',
    accept: JSON_TYPE,
    maxBytes: 4 * MB,
    everyMinutes: 15,
    keepSeconds: 30 * DAY_S,
    settings: {},
  },
  'swpc-mag': {
    family: 'space-weather',
    parser: 'swpc-solar-wind',
    defaultUrl: 'https://services.swpc.noaa.gov/products/solar-wind/mag-2-hour.json',
    accept: JSON_TYPE,
    maxBytes: 4 * MB,
    everyMinutes: 15,
    keepSeconds: 30 * DAY_S,
    settings: {},
  },
  // Earthquakes: the distance (km) to an environment or a line, and the least magnitude, that alert unless the connector says.
  'usgs-quakes': {
    family: 'hazard',
    parser: 'usgs-quakes',
    defaultUrl: 'https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_day.geojson',
    accept: JSON_TYPE,
    maxBytes: 16 * MB,
    everyMinutes: 15,
    keepSeconds: 90 * DAY_S,
    settings: { radius_km: 100, min_magnitude: 2.5 },
  },
  // GDACS events: the least alert level that alerts; without a radius, each event type's own (shared/domain/connectors/feed-catalog.ts GDACS_RADIUS_KM).
  gdacs: {
    family: 'hazard',
    parser: 'gdacs-events',
    defaultUrl: 'https://www.gdacs.org/gdacsapi/api/events/geteventlist/EVENTS4APP',
    accept: JSON_TYPE,
    maxBytes: 8 * MB,
    everyMinutes: 60,
    keepSeconds: 180 * DAY_S,
    settings: { radius_km: null, min_alert_level: 'green' },
  },
  'cisa-kev': {
    family: 'threat-intel',
    parser: 'cisa-kev',
    defaultUrl: 'https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json',
    accept: JSON_TYPE,
    maxBytes: 16 * MB,
    everyMinutes: 1440,
    keepSeconds: null,
    settings: {},
  },
  'stix-indicators': {
    family: 'threat-intel',
    parser: 'indicators',
    defaultUrl: null,
    accept: JSON_TYPE,
    maxBytes: 16 * MB,
    everyMinutes: 60,
    keepSeconds: 90 * DAY_S,
    settings: {},
  },
  'csv-indicators': {
    family: 'threat-intel',
    parser: 'indicators',
    defaultUrl: null,
    accept: 'text/csv, text/plain;q=0.9',
    maxBytes: 16 * MB,
    everyMinutes: 60,
    keepSeconds: 90 * DAY_S,
    settings: {},
  },
  // NWS alerts: a place this close to a warning's polygon (outside it) alerts too, unless the connector says.
  'nws-alerts': {
    family: 'hazard',
    parser: 'nws-alerts',
    defaultUrl: 'https://api.weather.gov/alerts/active',
    accept: 'application/geo+json, application/atom+xml;q=0.9',
    maxBytes: 16 * MB,
    everyMinutes: 5,
    keepSeconds: 7 * DAY_S,
    settings: { radius_km: 5 },
  },
  // The export is kept as one object in the bucket (shared/domain/internet-health/rpki-export.ts), not a record each.
  'rpki-vrps': {
    family: 'routing',
    parser: 'rpki-vrps',
    defaultUrl: 'https://rpki.cloudflare.com/rpki.json',
    accept: JSON_TYPE,
    maxBytes: 128 * MB,
    everyMinutes: 60,
    keepSeconds: null,
    settings: {},
    largePoll: true,
  },
  // A poll reads at most 2 MB of the prefix-filtered stream, for `stream_seconds`; updates are kept 7 days.
  'ris-live': {
    family: 'routing',
    parser: 'ripe-ris',
    defaultUrl: 'https://ris-live.ripe.net/v1/stream/?format=json&client=gatehouse',
    accept: 'application/json, application/x-ndjson;q=0.9',
    maxBytes: 2 * MB,
    everyMinutes: 5,
    keepSeconds: 7 * DAY_S,
    settings: { stream_seconds: 10, provides_transit: false },
    stream: true,
  },
  // Geopolitical (docs/feeds.md): an advisory or a listing stays until the source changes it, so none expires.
  'state-dept-advisories': {
    family: 'advisory',
    parser: 'state-dept-advisories',
    defaultUrl: 'https://travel.state.gov/_res/rss/TAsTWs.xml',
    accept: 'application/rss+xml, application/xml;q=0.9, text/xml;q=0.8',
    maxBytes: 8 * MB,
    everyMinutes: 360,
    keepSeconds: null,
    settings: {},
  },
  // One country's document each: the connector names it (`https://data.international.gc.ca/travel-voyage/cta-cap-<iso>.json`).
  'canada-advisory': {
    family: 'advisory',
    parser: 'canada-advisory',
    defaultUrl: null,
    accept: JSON_TYPE,
    maxBytes: 2 * MB,
    everyMinutes: 360,
    keepSeconds: null,
    settings: {},
  },
  'ofac-sdn': {
    family: 'sanctions',
    parser: 'ofac-sdn',
    defaultUrl: 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN.CSV',
    accept: 'text/csv, text/plain;q=0.9',
    maxBytes: 32 * MB,
    everyMinutes: 1440,
    keepSeconds: null,
    settings: {},
  },
  // A tenant's own advisories and sanctions programmes: its advisories alert as the public ones do.
  'geopolitical-list': {
    family: 'advisory',
    parser: 'geopolitical-list',
    defaultUrl: null,
    accept: 'application/json, text/csv;q=0.9, text/plain;q=0.8',
    maxBytes: 4 * MB,
    everyMinutes: 60,
    keepSeconds: null,
    settings: {},
  },
} as const satisfies Record<string, FeedCatalogEntry>;

export type FeedName = keyof typeof FEED_CATALOG;
/** The feeds, in the catalog's order: the `feed` enum of the schemas. */
export const FEED_NAMES = /* @__PURE__ */ Object.keys(FEED_CATALOG) as FeedName[];

export type FeedsOf<Family extends FeedFamily> = {
  [F in FeedName]: (typeof FEED_CATALOG)[F]['family'] extends Family ? F : never;
}[FeedName];
/** The feeds of a family, in the catalog's order. */
export const feedsOf = <Family extends FeedFamily>(family: Family): FeedsOf<Family>[] =>
  FEED_NAMES.filter((f) => FEED_CATALOG[f].family === family) as FeedsOf<Family>[];

export const HAZARD_FEEDS = /* @__PURE__ */ feedsOf('hazard');
export type HazardFeed = FeedsOf<'hazard'>;
export const ADVISORY_FEEDS = /* @__PURE__ */ feedsOf('advisory');
export const ROUTING_FEEDS = /* @__PURE__ */ feedsOf('routing');
export type RoutingFeed = FeedsOf<'routing'>;

/** The entry of a feed, typed as an entry (its settings and flags readable whatever the feed). */
export const feedEntry = (feed: FeedName): FeedCatalogEntry => FEED_CATALOG[feed];
