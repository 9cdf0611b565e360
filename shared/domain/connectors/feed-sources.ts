/**
 * Where a feed's records are kept (docs/connectors.md): by source. Records read from a feed's
 * public URL are public data, kept once for the platform under the feed's name and shared
 * read-only by every tenant that polls it. Records read from another URL (a mirror, a tenant's
 * own copy) are kept under the feed's name and a hash of that URL, so they never mix with the
 * public ones, and a tenant reads only the sources its own connectors poll. The URL hashed is the
 * one called, credentials and all: two tokens for one address may read different documents.
 */
import { createHash } from 'node:crypto';
import type { ConnectorSettings } from '../../db/connectors.js';
import type { FeedName } from '../../schemas/integrations.js';
import { FEED_CATALOG } from './feed-catalog.js';

export function feedSource(feed: FeedName, url: string): string {
  if (url === FEED_CATALOG[feed].defaultUrl) return feed;
  return `${feed}@${createHash('sha256').update(url).digest('hex').slice(0, 16)}`;
}

/** Where a connector's records are kept: as its settings name it (a connector saved before they did: from its URL). */
export const connectorSource = (settings: Pick<ConnectorSettings, 'feed' | 'url' | 'source'>): string =>
  settings.source ?? feedSource(settings.feed, settings.url);
