/**
 * The feeds a connector may poll: the catalog, one entry per feed (shared/schemas/feed-catalog.ts,
 * docs/connectors.md), and the hazard feeds' alert constants. The parsers are in poll-feed.ts, so
 * the routes that only show or configure connectors carry none of them.
 */
import { FEED_CATALOG, type FeedCatalogEntry } from '../../schemas/feed-catalog.js';

export { FEED_CATALOG };
export type FeedEntry = FeedCatalogEntry;

export const SWPC_PLASMA_2H_URL = FEED_CATALOG['swpc-plasma'].defaultUrl;
export const SWPC_MAG_2H_URL = FEED_CATALOG['swpc-mag'].defaultUrl;

/** Earthquakes: the distance (km) to an environment or a line, and the least magnitude, that alert unless the connector says. */
export const DEFAULT_RADIUS_KM = FEED_CATALOG['usgs-quakes'].settings.radius_km;
export const DEFAULT_MIN_MAGNITUDE = FEED_CATALOG['usgs-quakes'].settings.min_magnitude;
/**
 * GDACS events: the least alert level that alerts, and the distance from the event's centroid by
 * type unless the connector names one radius (a cyclone's or a drought's area is far wider than a
 * volcano's or a wildfire's).
 */
export const DEFAULT_MIN_ALERT_LEVEL: 'green' | 'orange' | 'red' = FEED_CATALOG.gdacs.settings.min_alert_level;
export const GDACS_RADIUS_KM = { EQ: 100, TC: 300, FL: 100, VO: 50, DR: 300, WF: 50 } as const;
/** NWS alerts: a place this close to a warning's polygon (outside it) alerts too, unless the connector says. */
export const NWS_DEFAULT_RADIUS_KM = FEED_CATALOG['nws-alerts'].settings.radius_km;
/** RIS Live: seconds a poll reads the stream unless the connector says. */
export const DEFAULT_STREAM_SECONDS = FEED_CATALOG['ris-live'].settings.stream_seconds;
