/**
 * What a tenant watches on the internet's routing (docs/connectors.md, "Internet health"), built
 * from its watchlist (docs/watchlist.md): each `ip` entry that is a range (a CIDR prefix) is a
 * watched prefix, each `asn` entry an expected origin of every watched prefix and a watched AS.
 * Pure: entries in, the watch of shared/feeds/bgp-alerts.ts and the RIS Live subscription out.
 */
import type { RoutingWatch } from '../../feeds/bgp-alerts.js';
import { covers, parsePrefix } from '../../feeds/ip-prefix.js';

/** Prefixes a RIS Live subscription names at most; past it, the rest are not watched (the status says so). */
export const MAX_WATCHED_PREFIXES = 200;

export interface WatchEntry {
  entity_type: string;
  value: string | number;
}

export interface BuiltWatch {
  watch: RoutingWatch;
  /** Ranges of the watchlist left out past MAX_WATCHED_PREFIXES. */
  left_out: number;
}

/**
 * The watch: `ip` ranges as prefixes (a single address is no route and is left out), each with
 * every watched ASN as an expected origin; `asn` entries as watched ASNs, giving transit or not as
 * the connector says. Prefixes in the watchlist's order, at most MAX_WATCHED_PREFIXES.
 */
export function routingWatch(entries: readonly WatchEntry[], providesTransit: boolean): BuiltWatch {
  const asns = [
    ...new Set(
      entries.filter((e) => e.entity_type === 'asn' && typeof e.value === 'number').map((e) => e.value as number),
    ),
  ];
  const ranges = entries.flatMap((e) => {
    if (e.entity_type !== 'ip' || typeof e.value !== 'string' || !e.value.includes('/')) return [];
    const p = parsePrefix(e.value);
    return p ? [p.text] : [];
  });
  const unique = [...new Set(ranges)];
  return {
    watch: {
      prefixes: unique.slice(0, MAX_WATCHED_PREFIXES).map((prefix) => ({ prefix, origins: asns })),
      asns: asns.map((asn) => ({ asn, provides_transit: providesTransit })),
    },
    left_out: Math.max(0, unique.length - MAX_WATCHED_PREFIXES),
  };
}

/**
 * The watch the detector is given: prefixes without an expected origin (a watchlist with ranges
 * but no `asn` entry) are left out, or every announcement of them would be an "unexpected
 * origin". Their updates are still read and kept.
 */
export function alertWatch(watch: RoutingWatch): RoutingWatch {
  return { ...watch, prefixes: watch.prefixes.filter((p) => p.origins.length > 0) };
}

/**
 * The `X-RIS-Subscribe` header of a RIS Live HTTP stream narrowed to the watched prefixes
 * (RIS Live's `ris_subscribe` filter: `type` UPDATE, `prefix` with `moreSpecific` true, so an
 * announcement of a more-specific, the usual hijack, is heard too; `lessSpecific` false).
 */
export function risSubscription(watch: RoutingWatch): string {
  return JSON.stringify({
    type: 'UPDATE',
    prefix: watch.prefixes.map((p) => p.prefix),
    moreSpecific: true,
    lessSpecific: false,
  });
}

/** Whether a prefix is a watched one or inside one (what a poll keeps of the stream). */
export function watchedBy(watch: RoutingWatch): (prefix: string) => boolean {
  const parsed = watch.prefixes.map((w) => parsePrefix(w.prefix)!);
  return (prefix) => {
    const p = parsePrefix(prefix);
    return p !== null && parsed.some((w) => covers(w, p));
  };
}

/** Whether two prefixes overlap (one holds the other): a VRP that matters to a watched prefix. */
export function overlapsAny(watch: RoutingWatch): (prefix: string) => boolean {
  const parsed = watch.prefixes.map((w) => parsePrefix(w.prefix)!);
  return (prefix) => {
    const p = parsePrefix(prefix);
    return p !== null && parsed.some((w) => w.version === p.version && (covers(w, p) || covers(p, w)));
  };
}
