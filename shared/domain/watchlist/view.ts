/**
 * A tenant's watchlist as the threat score and the stream worker ask it (docs/watchlist.md): what
 * a target, an event's mentions, a vessel's position or an IP's geography touches. The compiled
 * entries are kept by a function container and trusted while the tenant's watchlist revision is
 * the one they were read at (every add and remove moves it): a score or a stream batch costs one
 * read of the revision, and the entries' Query only after a change.
 */
import { allWatchlistEntries, readWatchlistRevision, type WatchlistEntry } from '../../db/watchlist/index.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import type { Mention } from '../events/index.js';
import {
  compileWatchlist,
  matchGeography,
  matchMentions,
  matchPosition,
  WATCH_LINE_DISTANCE_M,
  type CompiledWatchlist,
} from './match.js';

/** A watchlist entry touched, as alerts and scores name it. */
export interface WatchHit {
  entry_id: string;
  entity_type: string;
  value: string;
  /** The entry's label, or its type and value. */
  label: string;
  /** For a line: how far the position was from it (m). */
  distance_m?: number;
}

export interface WatchView {
  size: number;
  /** What a score's target touches: itself (an IP in a watched range, a domain or its parent, a watched vessel), or for a position the watched lines near it. */
  direct(type: string, key: string, point: { lat: number; lon: number } | null): WatchHit[];
  mentions(mentions: readonly Mention[]): { hit: WatchHit; mention: Mention }[];
  position(at: { mmsi: string; lat: number; lon: number }): WatchHit[];
  geography(at: { asn: number | null; country: string | null }): WatchHit[];
}

const hitOf = (e: WatchlistEntry, distance_m?: number): WatchHit => ({
  entry_id: e.entry_id,
  entity_type: e.entity_type,
  value: String(e.value),
  label:
    e.label ??
    (e.entity_type === 'line' && e.line?.name ? `line ${e.line.name}` : `${e.entity_type} ${String(e.value)}`),
  ...(distance_m !== undefined ? { distance_m } : {}),
});

function viewOf(compiled: CompiledWatchlist, size: number): WatchView {
  return {
    size,
    direct(type, key, point) {
      if (type === 'ip' || type === 'domain' || type === 'mmsi')
        return matchMentions(compiled, [{ type, value: key }]).map((m) => hitOf(m.entry));
      if (type === 'location' && point)
        return matchPosition(compiled, { lat: point.lat, lon: point.lon }, WATCH_LINE_DISTANCE_M).lines.map((l) =>
          hitOf(l.entry, l.distance_m),
        );
      return [];
    },
    mentions: (mentions) => matchMentions(compiled, mentions).map((m) => ({ hit: hitOf(m.entry), mention: m.mention })),
    position(at) {
      const m = matchPosition(compiled, at);
      return [...(m.vessel ? [hitOf(m.vessel)] : []), ...m.lines.map((l) => hitOf(l.entry, l.distance_m))];
    },
    geography: (at) => matchGeography(compiled, at).map((e) => hitOf(e)),
  };
}

/** Tenants kept per container; the least recently used goes first. */
const MAX_TENANTS = 500;
const kept = new Map<TenantId, { revision: number; view: Promise<WatchView> }>();

/** The tenant's watchlist now (one read of its revision; its entries when they changed). */
export async function watchlistOf(tenantId: TenantId): Promise<WatchView> {
  return watchlistAt(tenantId, (await readWatchlistRevision(tenantId)).revision);
}

/** The tenant's watchlist at `revision`, read by the caller with its other lookups (watchlistRevisionFrom). */
export function watchlistAt(tenantId: TenantId, revision: number): Promise<WatchView> {
  const hit = kept.get(tenantId);
  if (hit && hit.revision === revision) {
    kept.delete(tenantId);
    kept.set(tenantId, hit);
    return hit.view;
  }
  const view =
    revision === 0
      ? Promise.resolve(viewOf(compileWatchlist([]), 0))
      : allWatchlistEntries(tenantId).then((entries) => viewOf(compileWatchlist(entries), entries.length));
  kept.set(tenantId, { revision, view });
  if (kept.size > MAX_TENANTS) kept.delete(kept.keys().next().value!);
  view.catch(() => kept.delete(tenantId));
  return view;
}
