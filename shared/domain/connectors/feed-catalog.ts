/**
 * The feeds a connector may poll, as data (docs/connectors.md): the public source, the bound of a
 * document (the feed's size with room to grow), the minutes between polls unless the connector
 * says, and how long a record is kept (null: while the source lists it). The parsers are in
 * poll-feed.ts, so the routes that only show or configure connectors carry none of them.
 */
import { CISA_KEV_URL } from '../../feeds/cisa-kev.js';
import { GDACS_EVENTS_URL } from '../../feeds/gdacs-events.js';
import { NWS_ALERTS_MAX_BYTES, NWS_ALERTS_URL } from '../../feeds/nws-alerts-source.js';
import { RIS_LIVE_URL } from '../../feeds/ripe-ris.js';
import { RPKI_VRPS_MAX_BYTES, RPKI_VRPS_URL } from '../../feeds/rpki-vrps.js';
import { OFAC_SDN_URL } from '../../feeds/ofac-sdn.js';
import { STATE_DEPT_ADVISORIES_URL } from '../../feeds/state-dept-advisories.js';
import { SWPC_KP_URL } from '../../feeds/swpc-kp.js';
import { USGS_QUAKES_URL } from '../../feeds/usgs-quakes.js';
import type { FeedName } from '../../schemas/integrations.js';

export interface FeedEntry {
  /** Null for a tenant's own lists: a connector of theirs names its `url`. */
  defaultUrl: string | null;
  /** What the poll asks for (`accept`). */
  accept: string;
  maxBytes: number;
  everyMinutes: number;
  keepSeconds: number | null;
  /** A stream, not a document (RIS Live): a poll reads it for a bounded time and size, and either bound is its normal end. */
  stream?: true;
  /** Its document needs the 2 GB poller (`connector-poll-large`, shared/workers.ts): an RPKI export. */
  largePoll?: true;
}

const MB = 1024 * 1024;
const DAY_S = 86_400;

const JSON_TYPE = 'application/json';

/**
 * Solar wind: the two-hour products (the same format as the 7-day ones the parser was tested on,
 * a tenth of the records to read back each poll); every 15 minutes they overlap.
 */
export const SWPC_PLASMA_2H_URL = 'https://services.swpc.noaa.gov/products/solar-wind/plasma-2-hour.json';
export const SWPC_MAG_2H_URL = 'https://services.swpc.noaa.gov/products/solar-wind/mag-2-hour.json';

export const FEED_CATALOG: Record<FeedName, FeedEntry> = {
  'swpc-kp': { defaultUrl: SWPC_KP_URL, accept: JSON_TYPE, maxBytes: 2 * MB, everyMinutes: 15, keepSeconds: 90 * DAY_S },
  'swpc-plasma': { defaultUrl: SWPC_PLASMA_2H_URL, accept: JSON_TYPE, maxBytes: 4 * MB, everyMinutes: 15, keepSeconds: 30 * DAY_S },
  'swpc-mag': { defaultUrl: SWPC_MAG_2H_URL, accept: JSON_TYPE, maxBytes: 4 * MB, everyMinutes: 15, keepSeconds: 30 * DAY_S },
  'usgs-quakes': { defaultUrl: USGS_QUAKES_URL, accept: JSON_TYPE, maxBytes: 16 * MB, everyMinutes: 15, keepSeconds: 90 * DAY_S },
  gdacs: { defaultUrl: GDACS_EVENTS_URL, accept: JSON_TYPE, maxBytes: 8 * MB, everyMinutes: 60, keepSeconds: 180 * DAY_S },
  'cisa-kev': { defaultUrl: CISA_KEV_URL, accept: JSON_TYPE, maxBytes: 16 * MB, everyMinutes: 1440, keepSeconds: null },
  'stix-indicators': { defaultUrl: null, accept: JSON_TYPE, maxBytes: 16 * MB, everyMinutes: 60, keepSeconds: 90 * DAY_S },
  'csv-indicators': { defaultUrl: null, accept: 'text/csv, text/plain;q=0.9', maxBytes: 16 * MB, everyMinutes: 60, keepSeconds: 90 * DAY_S },
  'nws-alerts': { defaultUrl: NWS_ALERTS_URL, accept: 'application/geo+json, application/atom+xml;q=0.9', maxBytes: NWS_ALERTS_MAX_BYTES, everyMinutes: 5, keepSeconds: 7 * DAY_S },
  // The export is kept as one object in the bucket (shared/domain/internet-health/rpki-export.ts), not a record each.
  'rpki-vrps': { defaultUrl: RPKI_VRPS_URL, accept: JSON_TYPE, maxBytes: RPKI_VRPS_MAX_BYTES, everyMinutes: 60, keepSeconds: null, largePoll: true },
  // A poll reads at most 2 MB of the prefix-filtered stream; updates are kept 7 days.
  'ris-live': { defaultUrl: RIS_LIVE_URL, accept: 'application/json, application/x-ndjson;q=0.9', maxBytes: 2 * MB, everyMinutes: 5, keepSeconds: 7 * DAY_S, stream: true },
  // Geopolitical (docs/feeds.md): an advisory or a listing stays until the source changes it, so none expires.
  'state-dept-advisories': { defaultUrl: STATE_DEPT_ADVISORIES_URL, accept: 'application/rss+xml, application/xml;q=0.9, text/xml;q=0.8', maxBytes: 8 * MB, everyMinutes: 360, keepSeconds: null },
  // One country's document each: the connector names it (`https://data.international.gc.ca/travel-voyage/cta-cap-<iso>.json`).
  'canada-advisory': { defaultUrl: null, accept: JSON_TYPE, maxBytes: 2 * MB, everyMinutes: 360, keepSeconds: null },
  'ofac-sdn': { defaultUrl: OFAC_SDN_URL, accept: 'text/csv, text/plain;q=0.9', maxBytes: 32 * MB, everyMinutes: 1440, keepSeconds: null },
  'geopolitical-list': { defaultUrl: null, accept: 'application/json, text/csv;q=0.9, text/plain;q=0.8', maxBytes: 4 * MB, everyMinutes: 60, keepSeconds: null },
};

/** Earthquakes: the distance (km) to an environment or a line, and the least magnitude, that alert unless the connector says. */
export const DEFAULT_RADIUS_KM = 100;
export const DEFAULT_MIN_MAGNITUDE = 2.5;
/**
 * GDACS events: the least alert level that alerts, and the distance from the event's centroid by
 * type unless the connector names one radius (a cyclone's or a drought's area is far wider than a
 * volcano's or a wildfire's).
 */
export const DEFAULT_MIN_ALERT_LEVEL: 'green' | 'orange' | 'red' = 'green';
export const GDACS_RADIUS_KM = { EQ: 100, TC: 300, FL: 100, VO: 50, DR: 300, WF: 50 } as const;
/** NWS alerts: a place this close to a warning's polygon (outside it) alerts too, unless the connector says. */
export const NWS_DEFAULT_RADIUS_KM = 5;
/** RIS Live: seconds a poll reads the stream unless the connector says. */
export const DEFAULT_STREAM_SECONDS = 10;
