/**
 * Polls of the two routing feeds (docs/connectors.md, "Internet health"), called by pollConnector
 * in place of the generic record keeping:
 *
 * - `rpki-vrps`: the export read through the outbound guard and kept as one object per source
 *   (rpki-export.ts); the tenant's snapshot of its watched prefixes' RPKI states refreshed;
 * - `ris-live`: the RIS Live stream read for a bounded time and size, narrowed to the watched
 *   prefixes (routing-watch.ts), the updates of watched prefixes kept as records of the
 *   connector's own source (7 days), the alerts detected against the watch and the tenant's RPKI
 *   export and raised once each, the snapshot refreshed.
 */
import { listTenantConnectors, type ConnectorSettings } from '../../db/connectors.js';
import { allWatchlistEntries } from '../../db/watchlist/index.js';
import { putRoutingSnapshot, type PrefixRpki } from '../../db/internet-health.js';
import { storeFeedRecords } from '../../db/feed-records.js';
import { detectRoutingAlerts, type RoutingWatch } from '../../feeds/bgp-alerts.js';
import { vrpIndex, type VrpIndex, type VrpRecord } from '../../feeds/rpki-vrps.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { outboundPolicy } from '../outbound-policy.js';
import {
  DEFAULT_STREAM_SECONDS,
  exportConnectorRecords,
  connectorSource,
  FEED_CATALOG,
  pollFeed,
  type FeedPollResult,
  type RoutingFeed,
} from '../connectors/index.js';
import { compactVrps, keepRpkiExport, keptVrps } from './rpki-export.js';
import { raiseRoutingAlerts } from './routing-alerts.js';
import { alertWatch, overlapsAny, risSubscription, routingWatch, watchedBy } from './routing-watch.js';
import { risSource } from './ris-source.js';

/** Polls a routing feed's connector; never throws for the feed's faults. */
export async function pollRouting(
  tenantId: TenantId,
  connectorId: string,
  settings: ConnectorSettings & { feed: RoutingFeed },
  requested: boolean,
  startedAt: string,
): Promise<FeedPollResult> {
  return settings.feed === 'rpki-vrps'
    ? pollRpki(tenantId, settings, requested, startedAt)
    : pollRis(tenantId, connectorId, settings, requested, startedAt);
}

async function tenantWatch(tenantId: TenantId, providesTransit: boolean) {
  return routingWatch(await allWatchlistEntries(tenantId), providesTransit);
}

async function pollRpki(
  tenantId: TenantId,
  settings: ConnectorSettings,
  requested: boolean,
  startedAt: string,
): Promise<FeedPollResult> {
  const outcome = await pollFeed('rpki-vrps', outboundPolicy(), settings.url, requested ? 15_000 : 20_000);
  if (outcome.status === 'failed') return outcome;
  const source = connectorSource(settings);
  const kept = await keepRpkiExport(
    source,
    outcome.url,
    compactVrps(outcome.records),
    outcome.records.length,
    startedAt,
  );
  // The tenant's watched prefixes judged against this export, straight from what was just read.
  const { watch } = await tenantWatch(tenantId, false);
  const keep = overlapsAny(watch);
  await saveSnapshot(
    tenantId,
    watch,
    vrpIndex(outcome.records.filter((v) => keep(v.prefix))),
    source,
    kept.index.vrps_hash,
    startedAt,
  );
  const { records: _records, ...meta } = outcome;
  return {
    ...meta,
    read: outcome.records.length,
    kept: { stored: kept.stored, updated: 0, unchanged: kept.unchanged },
    note: null,
    alerts: 0,
  };
}

async function pollRis(
  tenantId: TenantId,
  connectorId: string,
  settings: ConnectorSettings,
  requested: boolean,
  startedAt: string,
): Promise<FeedPollResult> {
  const { watch, left_out } = await tenantWatch(tenantId, settings.provides_transit ?? false);
  if (watch.prefixes.length === 0) {
    // Never the unfiltered stream: without a watched range there is nothing to ask RIS Live for.
    return {
      status: 'ok',
      httpStatus: null,
      bytes: 0,
      latencyMs: 0,
      read: 0,
      kept: { stored: 0, updated: 0, unchanged: 0 },
      problems: [],
      note: 'nothing to watch: the watchlist has no ip range (CIDR) entry',
      alerts: 0,
    };
  }
  // Asked for through the API, the answer must come within API Gateway's 29 s: 10 s of stream at most.
  const windowMs = Math.min((settings.stream_seconds ?? DEFAULT_STREAM_SECONDS) * 1000, requested ? 10_000 : Infinity);
  const outcome = await pollFeed('ris-live', outboundPolicy(), settings.url, requested ? 10_000 : 15_000, {
    windowMs,
    headers: { 'x-ris-subscribe': risSubscription(watch) },
  });
  if (outcome.status === 'failed') return outcome;
  // RIS filters by prefix already; a mirror or a replay may not.
  const watched = watchedBy(watch);
  const updates = outcome.records.filter((u) => watched(u.prefix));
  const keep = FEED_CATALOG['ris-live'].keepSeconds;
  // Kept by time, so the newest updates are one Query (shared/db/feed-records.ts orders by id).
  const source = risSource(tenantId, connectorId);
  const kept = await storeFeedRecords(
    source,
    updates.map((u) => ({ ...u, id: `${u.time}|${u.id}` })),
    startedAt,
    Math.floor(Date.parse(startedAt) / 1000) + keep,
  );
  // The updates go to the tenant's data lake too (feed_records), as every document feed's records do.
  await exportConnectorRecords(tenantId, { id: connectorId, feed: 'ris-live', source }, updates, startedAt);
  const rpki = await tenantRpki(tenantId, watch);
  const alerts = await raiseRoutingAlerts(
    tenantId,
    connectorId,
    detectRoutingAlerts(updates, alertWatch(watch), rpki?.index),
    Date.parse(startedAt),
  );
  await saveSnapshot(tenantId, watch, rpki?.index ?? null, rpki?.source ?? null, rpki?.hash ?? null, startedAt);
  const { records: _records, ...meta } = outcome;
  return {
    ...meta,
    read: updates.length,
    kept,
    note:
      [
        left_out > 0
          ? `${left_out} ip ranges of the watchlist past the first ${watch.prefixes.length} are not watched`
          : null,
        watch.asns.length === 0 ? 'no asn in the watchlist: no origin is expected, so no hijack is judged' : null,
      ]
        .filter((n) => n !== null)
        .join('; ') || null,
    alerts,
  };
}

/** The tenant's RPKI export (its first `rpki-vrps` connector's source), narrowed to what overlaps the watch; null without one. */
async function tenantRpki(
  tenantId: TenantId,
  watch: RoutingWatch,
): Promise<{ index: VrpIndex; source: string; hash: string } | null> {
  const connector = (await listTenantConnectors(tenantId)).find((c) => c.connector.feed === 'rpki-vrps');
  if (!connector) return null;
  const source = connectorSource(connector.connector);
  const kept = await keptVrps(source, overlapsAny(watch));
  return kept ? { index: vrpIndex(kept.vrps), source, hash: kept.index.vrps_hash } : null;
}

/** Each watched prefix judged (RFC 6811) for each expected origin; one PutItem. */
async function saveSnapshot(
  tenantId: TenantId,
  watch: RoutingWatch,
  index: VrpIndex | null,
  source: string | null,
  hash: string | null,
  at: string,
): Promise<void> {
  const brief = (v: VrpRecord) => ({ asn: v.asn, prefix: v.prefix, max_length: v.max_length });
  const prefixes: PrefixRpki[] = index
    ? watch.prefixes.map((w) => ({
        prefix: w.prefix,
        origins: w.origins.map((asn) => {
          const v = index.validate(w.prefix, asn);
          return { asn, state: v.state, covering: v.covering.slice(0, 10).map(brief) };
        }),
      }))
    : [];
  await putRoutingSnapshot(tenantId, {
    computed_at: at,
    rpki_source: index ? source : null,
    rpki_hash: index ? hash : null,
    prefixes,
  });
}
