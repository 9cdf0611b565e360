/**
 * The tenant's internet health as `GET /api/v1/internet-health` and
 * `GET /api/v1/internet-health/bgp-alerts` show it (docs/connectors.md, "Internet health"). Reads
 * only: no parser, no outbound call, no bucket.
 *
 * Costs: the health is 1 Query of the connectors, 1 Query of the watchlist, 1 GetItem of the
 * snapshot, 1 Query of the newest kept updates per RIS Live connector (500 at most), 1 Query of
 * the alerts in the window (1,000 at most). The alerts list is 1 Query (offset + limit, filtered,
 * within 1,000 of the newest alerts since `since`).
 */
import { listTenantConnectors, type StoredConnector } from '../../db/connectors.js';
import { feedRecords } from '../../db/feed-records.js';
import { getRoutingSnapshot, routingAlertsSince } from '../../db/internet-health.js';
import { allWatchlistEntries } from '../../db/watchlist/index.js';
import type { RoutingAlert } from '../../feeds/bgp-alerts.js';
import type { BgpUpdateRecord } from '../../feeds/ripe-ris.js';
import { covers, parsePrefix } from '../../feeds/ip-prefix.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { connectorView } from '../connectors/index.js';
import { risSource } from './ris-source.js';
import { isRoutingFeed } from '../connectors/index.js';
import { routingWatch } from './routing-watch.js';

/** Alerts read at most for a window's counts or a list's filter. */
export const MAX_ALERTS_READ = 1000;
/** Kept updates read at most per RIS Live connector. */
const MAX_UPDATES_READ = 500;

function freshness(c: StoredConnector, nowMs: number) {
  const view = connectorView(c);
  const last = view.status.last_success_at;
  return {
    connector_id: view.connector_id,
    name: view.name,
    feed: view.feed,
    state: view.status.state,
    interval_minutes: view.interval_minutes,
    last_run_at: view.status.last_run_at,
    last_success_at: last,
    last_error: view.status.last_error,
    // Stale: no success within three intervals (a poll failed twice running, or it does not run).
    stale: last === null || nowMs - Date.parse(last) > 3 * view.interval_minutes * 60_000,
  };
}

const brief = (u: BgpUpdateRecord) => ({
  kind: u.kind,
  prefix: u.prefix,
  time: u.time,
  collector: u.collector,
  peer_asn: u.peer_asn,
  path: u.path,
  origin_asn: u.origin_asn,
});

export async function internetHealth(tenantId: TenantId, q: { hours: number; updates: number }, nowMs = Date.now()) {
  const since = new Date(nowMs - q.hours * 3_600_000).toISOString();
  const [connectors, entries, snapshot, alerts] = await Promise.all([
    listTenantConnectors(tenantId),
    allWatchlistEntries(tenantId),
    getRoutingSnapshot(tenantId),
    routingAlertsSince<RoutingAlert>(tenantId, since, MAX_ALERTS_READ),
  ]);
  const routing = connectors.filter((c) => isRoutingFeed(c.connector.feed));
  const ris = routing.filter((c) => c.connector.feed === 'ris-live');
  const updates = (
    await Promise.all(
      ris.map((c) =>
        feedRecords<BgpUpdateRecord>(risSource(tenantId, c.integration_id), MAX_UPDATES_READ, { newestFirst: true }),
      ),
    )
  )
    .flat()
    .sort((a, b) => b.time.localeCompare(a.time));
  const { watch } = routingWatch(entries, false);
  const judged = new Map((snapshot?.prefixes ?? []).map((p) => [p.prefix, p]));
  const prefixes = watch.prefixes.map((w) => {
    const outer = parsePrefix(w.prefix)!;
    const inside = (p: string) => {
      const parsed = parsePrefix(p);
      return parsed !== null && covers(outer, parsed);
    };
    const rpki = judged.get(w.prefix);
    const mine = alerts.filter((a) => a.alert.watched_prefix === w.prefix);
    return {
      prefix: w.prefix,
      expected_origins: w.origins,
      // Judged against the expected origins as they were at the last poll: an origin added since has none yet.
      rpki: rpki
        ? w.origins.map((asn) => rpki.origins.find((o) => o.asn === asn) ?? { asn, state: null, covering: [] })
        : null,
      last_updates: updates
        .filter((u) => inside(u.prefix))
        .slice(0, q.updates)
        .map(brief),
      alerts: {
        possible_hijack: mine.filter((a) => a.alert.kind === 'possible_hijack').length,
        possible_leak: mine.filter((a) => a.alert.kind === 'possible_leak').length,
      },
    };
  });
  return {
    generated_at: new Date(nowMs).toISOString(),
    window_hours: q.hours,
    prefixes,
    asns: watch.asns.map((a) => a.asn),
    alerts: {
      since,
      possible_hijack: alerts.filter((a) => a.alert.kind === 'possible_hijack').length,
      possible_leak: alerts.filter((a) => a.alert.kind === 'possible_leak').length,
      truncated: alerts.length >= MAX_ALERTS_READ,
    },
    rpki_computed_at: snapshot?.rpki_source ? snapshot.computed_at : null,
    connectors: routing.map((c) => freshness(c, nowMs)),
  };
}

export interface AlertFilter {
  kind?: RoutingAlert['kind'];
  prefix?: string;
  asn?: number;
  since?: string;
  limit: number;
  offset: number;
}

/** The default window of the list: the alerts are kept 30 days. */
const LIST_DAYS = 30;

export async function listRoutingAlerts(tenantId: TenantId, f: AlertFilter, nowMs = Date.now()) {
  const since = f.since ?? new Date(nowMs - LIST_DAYS * 86_400_000).toISOString();
  const read = await routingAlertsSince<RoutingAlert>(tenantId, since, MAX_ALERTS_READ);
  const wanted = f.prefix ? parsePrefix(f.prefix) : null;
  const matching = read.filter(({ alert: a }) => {
    if (f.kind && a.kind !== f.kind) return false;
    if (f.asn !== undefined && a.origin_asn !== f.asn && a.watched_asn !== f.asn && !a.path?.flat().includes(f.asn))
      return false;
    if (wanted) {
      // The prefix named, or inside it: a watched prefix finds the alerts of its more-specifics.
      const p = parsePrefix(a.prefix);
      if (!p || !covers(wanted, p)) return false;
    }
    return true;
  });
  return {
    items: matching
      .slice(f.offset, f.offset + f.limit)
      .map(({ alert, connector_id, event_id }) => ({ ...alert, connector_id, event_id })),
    total: matching.length,
    limit: f.limit,
    offset: f.offset,
    truncated: read.length >= MAX_ALERTS_READ,
  };
}
