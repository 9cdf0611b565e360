/**
 * The feeds a connector may poll, as data (docs/connectors.md): the public source, the bound of a
 * document (the feed's size with room to grow), the minutes between polls unless the connector
 * says, and how long a record is kept (null: while the source lists it). The parsers are in
 * poll-feed.ts, so the routes that only show or configure connectors carry none of them.
 */
import { CISA_KEV_URL } from '../../feeds/cisa-kev.js';
import { SWPC_KP_URL } from '../../feeds/swpc-kp.js';
import { USGS_QUAKES_URL } from '../../feeds/usgs-quakes.js';
import type { FeedName } from '../../schemas/integrations.js';

export interface FeedEntry {
  defaultUrl: string;
  maxBytes: number;
  everyMinutes: number;
  keepSeconds: number | null;
}

const MB = 1024 * 1024;
const DAY_S = 86_400;

export const FEED_CATALOG: Record<FeedName, FeedEntry> = {
  'swpc-kp': { defaultUrl: SWPC_KP_URL, maxBytes: 2 * MB, everyMinutes: 15, keepSeconds: 90 * DAY_S },
  'usgs-quakes': { defaultUrl: USGS_QUAKES_URL, maxBytes: 16 * MB, everyMinutes: 15, keepSeconds: 90 * DAY_S },
  'cisa-kev': { defaultUrl: CISA_KEV_URL, maxBytes: 16 * MB, everyMinutes: 1440, keepSeconds: null },
};

/** Earthquakes: the distance (km) to an environment or a line, and the least magnitude, that alert unless the connector says. */
export const DEFAULT_RADIUS_KM = 100;
export const DEFAULT_MIN_MAGNITUDE = 2.5;
