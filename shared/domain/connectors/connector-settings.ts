/**
 * A connector's settings (docs/connectors.md): what a `feed` integration's config says, completed
 * with its feed's defaults, and its schedule kept in step with them (EventBridge Scheduler in AWS,
 * timers under `npm start`: shared/adapters/connector-schedules.ts).
 */
import { connectorSchedules } from '../../adapters/connector-schedules.js';
import type { ConnectorSettings } from '../../db/connectors.js';
import { invalid } from '../../errors.js';
import type { FeedName } from '../../schemas/integrations.js';
import { DEFAULT_MIN_ALERT_LEVEL, DEFAULT_MIN_MAGNITUDE, DEFAULT_RADIUS_KM, DEFAULT_STREAM_SECONDS, FEED_CATALOG, NWS_DEFAULT_RADIUS_KM } from './feed-catalog.js';

/** What a `feed` integration's config may say, before defaults. */
export interface ConnectorConfigInput {
  feed?: FeedName;
  url?: string;
  interval_minutes?: number;
  radius_km?: number;
  min_magnitude?: number;
  min_alert_level?: 'green' | 'orange' | 'red';
  stream_seconds?: number;
  provides_transit?: boolean;
}

/** The alert settings, and the feeds that take each. */
const SETTING_FEEDS = { radius_km: ['usgs-quakes', 'gdacs', 'nws-alerts'], min_magnitude: ['usgs-quakes'], min_alert_level: ['gdacs'] } as const;

/** The connector's settings, complete: the feed's defaults where the config is silent. `checkUrl` checks a named source. */
function missingUrl(feed: FeedName): never {
  throw invalid(['body', 'config', 'url'], `is required for a ${feed} connector: it has no public source`, 'missing');
}

export async function connectorSettings(given: ConnectorConfigInput, checkUrl: (url: string) => Promise<string>): Promise<ConnectorSettings> {
  if (!given.feed) throw invalid(['body', 'config', 'feed'], 'is required for a feed integration', 'missing');
  const feed = FEED_CATALOG[given.feed];
  for (const [setting, feeds] of Object.entries(SETTING_FEEDS)) {
    if (given[setting as keyof typeof SETTING_FEEDS] !== undefined && !(feeds as readonly string[]).includes(given.feed)) {
      throw invalid(['body', 'config', setting], `is a setting of ${feeds.join(', ')} connectors only`, 'extra_forbidden');
    }
  }
  if ((given.stream_seconds !== undefined || given.provides_transit !== undefined) && given.feed !== 'ris-live') {
    throw invalid(['body', 'config', given.stream_seconds !== undefined ? 'stream_seconds' : 'provides_transit'], 'is a setting of ris-live connectors only', 'extra_forbidden');
  }
  return {
    feed: given.feed,
    url: given.url ? await checkUrl(given.url) : (feed.defaultUrl ?? missingUrl(given.feed)),
    interval_minutes: given.interval_minutes ?? feed.everyMinutes,
    ...(given.feed === 'usgs-quakes' ? { radius_km: given.radius_km ?? DEFAULT_RADIUS_KM, min_magnitude: given.min_magnitude ?? DEFAULT_MIN_MAGNITUDE } : {}),
    // GDACS without a radius: each event type's own (feed-catalog.ts GDACS_RADIUS_KM).
    ...(given.feed === 'gdacs' ? { ...(given.radius_km !== undefined ? { radius_km: given.radius_km } : {}), min_alert_level: given.min_alert_level ?? DEFAULT_MIN_ALERT_LEVEL } : {}),
    ...(given.feed === 'nws-alerts' ? { radius_km: given.radius_km ?? NWS_DEFAULT_RADIUS_KM } : {}),
    ...(given.feed === 'ris-live' ? { stream_seconds: given.stream_seconds ?? DEFAULT_STREAM_SECONDS, provides_transit: given.provides_transit ?? false } : {}),
  };
}

/** Puts the connector's schedule as its settings say (disabled: kept, but off). */
export async function armConnector(c: { tenant_id: string; integration_id: string; enabled: boolean; connector: ConnectorSettings }): Promise<void> {
  await connectorSchedules().put({
    tenantId: c.tenant_id,
    integrationId: c.integration_id,
    everyMinutes: c.connector.interval_minutes,
    enabled: c.enabled,
    large: FEED_CATALOG[c.connector.feed].largePoll === true,
  });
}

export async function disarmConnector(integrationId: string): Promise<void> {
  await connectorSchedules().remove(integrationId);
}
