/**
 * Hijack and leak alerts for what a tenant watches, from BGP updates (RIS Live) and, when given,
 * RPKI VRPs. Pure: the watch list, the updates and the VRP index in, alerts out. These are
 * possibilities for a person to look at, not verdicts; docs/feeds.md says what each rule can and
 * cannot see.
 */
import type { BgpUpdateRecord } from './ripe-ris.js';
import { covers, parsePrefix } from './ip-prefix.js';
import type { RpkiState, VrpIndex } from './rpki-vrps.js';

export interface WatchedPrefix {
  /** The tenant's prefix (`193.0.0.0/21`). Announcements of it or of anything inside it are checked. */
  prefix: string;
  /** The ASNs allowed to originate it (and its more-specifics). */
  origins: number[];
  /** Optional: the ASNs that may appear right before the origin (its transit providers and peers). */
  upstreams?: number[];
}

export interface WatchedAsn {
  asn: number;
  /**
   * False for a network that gives transit to nobody (a stub or multihomed enterprise): seen in the
   * middle of a path, it is passing one provider's routes to another, a leak. Default false.
   */
  provides_transit?: boolean;
}

export interface RoutingWatch {
  prefixes: WatchedPrefix[];
  asns: WatchedAsn[];
}

export type RoutingAlertKind = 'possible_hijack' | 'possible_leak';

export interface RoutingAlert {
  /** `<kind>-<update id>`: one per update and kind, the same on every re-run. */
  id: string;
  kind: RoutingAlertKind;
  /** Which rule fired: `unexpected_origin`, `no_single_origin`, `rpki_invalid`, `transit_by_stub`, `unexpected_upstream`. */
  rule: string;
  reason: string;
  prefix: string;
  watched_prefix: string | null;
  watched_asn: number | null;
  origin_asn: number | null;
  path: BgpUpdateRecord['path'];
  rpki: RpkiState | null;
  update_id: string;
  collector: string | null;
  peer_asn: number;
  time: string;
}

/**
 * The alerts raised by a batch of updates. Only announcements are judged (a withdrawal is a route
 * going away; its absence is an outage question, not a hijack or leak). Rules, per announcement:
 * - possible_hijack / unexpected_origin: a watched prefix, or a more-specific of it, originated by
 *   an AS not in its `origins`;
 * - possible_hijack / no_single_origin: the same, but the path ends in an AS_SET, so no origin can be told;
 * - possible_hijack / rpki_invalid: RPKI says invalid (RFC 6811) for a route of a watched prefix
 *   (only when a VRP index is given; a route of the expected origin that is too specific for its
 *   ROA's maxLength is invalid too, and is reported);
 * - possible_leak / transit_by_stub: a watched ASN that does not provide transit appears in the
 *   middle of a path (neither the origin nor the collector's peer);
 * - possible_leak / unexpected_upstream: a watched prefix from its expected origin, but the AS right
 *   before the origin is not among the configured `upstreams`.
 * One update raises at most one alert of each kind (the first rule that fires, in that order).
 */
export function detectRoutingAlerts(
  updates: readonly BgpUpdateRecord[],
  watch: RoutingWatch,
  rpki?: VrpIndex,
): RoutingAlert[] {
  const watched = watch.prefixes.map((w) => {
    const p = parsePrefix(w.prefix);
    if (!p) throw new RangeError(`watched prefix is not a prefix: ${JSON.stringify(w.prefix)}`);
    return { ...w, parsed: p };
  });
  const stubs = new Set(watch.asns.filter((a) => !a.provides_transit).map((a) => a.asn));
  const alerts: RoutingAlert[] = [];

  for (const u of updates) {
    if (u.kind !== 'announcement' || !u.path) continue;
    const route = parsePrefix(u.prefix);
    if (!route) continue;
    const base = {
      prefix: u.prefix,
      origin_asn: u.origin_asn,
      path: u.path,
      update_id: u.id,
      collector: u.collector,
      peer_asn: u.peer_asn,
      time: u.time,
    };
    // The most specific watched prefix covering the route decides what is expected.
    const w = watched.filter((x) => covers(x.parsed, route)).sort((a, b) => b.parsed.length - a.parsed.length)[0];
    const state = w && rpki ? rpki.validate(u.prefix, u.origin_asn).state : null;

    if (w) {
      const more = route.length > w.parsed.length ? ` (a more-specific of ${w.parsed.text})` : '';
      let hijack: { rule: string; reason: string } | null = null;
      if (u.origin_asn === null)
        hijack = {
          rule: 'no_single_origin',
          reason: `${u.prefix}${more} announced with a path ending in an AS_SET: no single origin, expected AS${w.origins.join('/AS')}`,
        };
      else if (!w.origins.includes(u.origin_asn))
        hijack = {
          rule: 'unexpected_origin',
          reason: `${u.prefix}${more} originated by AS${u.origin_asn}, expected AS${w.origins.join('/AS')}`,
        };
      else if (state === 'invalid')
        hijack = {
          rule: 'rpki_invalid',
          reason: `${u.prefix}${more} from AS${u.origin_asn} is RPKI invalid (no covering ROA allows this origin at this length)`,
        };
      if (hijack)
        alerts.push({
          id: `possible_hijack-${u.id}`,
          kind: 'possible_hijack',
          ...hijack,
          watched_prefix: w.parsed.text,
          watched_asn: null,
          rpki: state,
          ...base,
        });
    }

    // Leaks. The first element is the collector's peer, the last the origin; the middle is transit.
    const flat = u.path.map((e) => (Array.isArray(e) ? null : e));
    const middle = flat.slice(1, -1).filter((a): a is number => a !== null);
    const stub = middle.find((a) => stubs.has(a) && a !== u.origin_asn);
    let leak: { rule: string; reason: string; watched_asn: number | null } | null = null;
    if (stub !== undefined) {
      leak = {
        rule: 'transit_by_stub',
        reason: `AS${stub}, which provides transit to nobody, is in the middle of the path ${u.path.flat().join(' ')} for ${u.prefix}`,
        watched_asn: stub,
      };
    } else if (w?.upstreams?.length && u.origin_asn !== null && w.origins.includes(u.origin_asn)) {
      // The AS before the origin, skipping prepends of the origin itself.
      const before = [...flat].reverse().find((a) => a !== u.origin_asn);
      if (before !== undefined && before !== null && !w.upstreams.includes(before)) {
        leak = {
          rule: 'unexpected_upstream',
          reason: `${u.prefix} from AS${u.origin_asn} reached the collector through AS${before}, not one of its upstreams AS${w.upstreams.join('/AS')}`,
          watched_asn: null,
        };
      }
    }
    if (leak)
      alerts.push({
        id: `possible_leak-${u.id}`,
        kind: 'possible_leak',
        ...leak,
        watched_prefix: w?.parsed.text ?? null,
        rpki: state,
        ...base,
      });
  }
  return alerts;
}
