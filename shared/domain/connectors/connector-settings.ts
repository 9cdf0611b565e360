/**
 * A connector's settings (docs/connectors.md): what a `feed` integration's config says, completed
 * with its feed's defaults, and its schedule kept in step with them (EventBridge Scheduler in AWS,
 * timers under `npm start`: shared/adapters/connector-schedules.ts). Credentials in its URL are
 * kept sealed with the integration's config, the settings show them `REDACTED`.
 */
import { connectorSchedules } from '../../adapters/connector-schedules.js';
import { secretBox } from '../../adapters/secret-box.js';
import type { ConnectorSettings } from '../../db/connectors.js';
import { integrationSecretContext, type StoredIntegration } from '../../db/integrations.js';
import { invalid } from '../../errors.js';
import { hasPlaceholders, redactUrl } from '../../url-secrets.js';
import { feedSource } from './feed-sources.js';
import {
  FEED_NAMES,
  FEED_SETTINGS,
  feedEntry,
  type FeedName,
  type FeedSetting,
  type FeedSettings,
} from '../../schemas/feed-catalog.js';

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

/** The connector's settings, complete: the feed's defaults where the config is silent. `checkUrl` checks a named source. */
function missingUrl(feed: FeedName): never {
  throw invalid(['body', 'config', 'url'], `is required for a ${feed} connector: it has no public source`, 'missing');
}

/** The feeds whose catalog entry takes a setting. */
const feedsTaking = (setting: FeedSetting): FeedName[] => FEED_NAMES.filter((f) => setting in feedEntry(f).settings);

export async function connectorSettings(
  given: ConnectorConfigInput,
  checkUrl: (url: string) => Promise<string>,
): Promise<ConnectorSettings> {
  if (!given.feed) throw invalid(['body', 'config', 'feed'], 'is required for a feed integration', 'missing');
  const feed = feedEntry(given.feed);
  for (const setting of FEED_SETTINGS) {
    if (given[setting] !== undefined && !(setting in feed.settings)) {
      throw invalid(
        ['body', 'config', setting],
        `is a setting of ${feedsTaking(setting).join(', ')} connectors only`,
        'extra_forbidden',
      );
    }
  }
  // Each setting the feed takes: as given, else its default (none when that is null: GDACS without
  // a radius takes each event type's own, feed-catalog.ts GDACS_RADIUS_KM).
  const settings = Object.fromEntries(
    Object.entries(feed.settings).flatMap(([setting, fallback]) => {
      const value: unknown = given[setting as FeedSetting] ?? fallback;
      return value === null || value === undefined ? [] : [[setting, value]];
    }),
  ) as FeedSettings;
  return {
    feed: given.feed,
    url: given.url ? await checkUrl(given.url) : (feed.defaultUrl ?? missingUrl(given.feed)),
    interval_minutes: given.interval_minutes ?? feed.everyMinutes,
    ...settings,
  } as ConnectorSettings;
}

/** The settings as kept on the item: the URL's credentials `REDACTED`, and where its records go (from the URL called). */
export function keptSettings(settings: ConnectorSettings): ConnectorSettings {
  return { ...settings, url: redactUrl(settings.url), source: feedSource(settings.feed, settings.url) };
}

/**
 * The URL a connector calls: as kept, or, when credentials are `REDACTED` in it, the one sealed
 * in the integration's config (the caller's grants must allow opening it).
 */
export async function connectorUrl(
  i: Pick<StoredIntegration, 'tenant_id' | 'integration_id' | 'config_sealed'> & { connector: ConnectorSettings },
): Promise<string> {
  if (!hasPlaceholders(i.connector.url)) return i.connector.url;
  const config = JSON.parse(
    await secretBox().open(i.config_sealed, integrationSecretContext(i.tenant_id, i.integration_id)),
  ) as { url?: string };
  if (!config.url) throw new Error(`connector ${i.integration_id} has no URL in its sealed config`);
  return config.url;
}

/** Puts the connector's schedule as its settings say (disabled: kept, but off). */
export async function armConnector(c: {
  tenant_id: string;
  integration_id: string;
  enabled: boolean;
  connector: ConnectorSettings;
}): Promise<void> {
  await connectorSchedules().put({
    tenantId: c.tenant_id,
    integrationId: c.integration_id,
    everyMinutes: c.connector.interval_minutes,
    enabled: c.enabled,
    large: feedEntry(c.connector.feed).largePoll === true,
  });
}

export async function disarmConnector(integrationId: string): Promise<void> {
  await connectorSchedules().remove(integrationId);
}
