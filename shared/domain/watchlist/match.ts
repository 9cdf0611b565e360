/**
 * What touches a tenant's watchlist (docs/watchlist.md), without I/O: the entries compiled once
 * (per watchlist revision, by whoever keeps them), then matched against the entities an event
 * names (shared/domain/events/mentions.ts), a vessel's position, and an IP's geography.
 *
 * - `vessel` entries match an `mmsi` mention, and a position of that MMSI;
 * - `ip` entries match an `ip` mention inside the address or range (IPv4 and IPv6);
 * - `domain` entries match a `domain` mention that is the domain or one of its subdomains;
 * - `line` entries match a position within WATCH_LINE_DISTANCE_M of the line's kept vertices
 *   (an R-tree over their segments, searched with the position's box widened by the distance,
 *   then measured great-circle: shared/domain/infrastructure/line-search.ts);
 * - `asn` and `country` entries match an IP's autonomous system and country.
 *
 * `sensor` mentions touch nothing: sensors are not watched.
 */
import type { Position } from 'geojson';
import type { WatchlistEntry } from '../../db/watchlist/index.js';
import { mmsiOf, normaliseDomain, type Mention } from '../events/index.js';
import { buildLineIndex, linesNear, openLineIndex, type LineIndex } from '../infrastructure/index.js';
import { inRange, ipRangeOf, type IpRange } from './values.js';

/** How near a position must come to a watched line to touch it (metres). */
export const WATCH_LINE_DISTANCE_M = 2000;

export interface CompiledWatchlist {
  /** Vessel entries by MMSI. */
  vessels: ReadonlyMap<string, WatchlistEntry>;
  /** IP entries with their ranges (an address is a /32 or /128). */
  ips: readonly { entry: WatchlistEntry; range: IpRange }[];
  /** Domain entries by domain: a mention matches each of its suffixes that is here. */
  domains: ReadonlyMap<string, WatchlistEntry>;
  asns: ReadonlyMap<number, WatchlistEntry>;
  countries: ReadonlyMap<string, WatchlistEntry>;
  /** Line entries, in the order of the index's lines, and the R-tree over their segments. */
  lines: { entries: readonly WatchlistEntry[]; index: LineIndex };
}

/** Compiles a tenant's entries (as allWatchlistEntries reads them). An entry whose value does not parse is left out. */
export function compileWatchlist(entries: readonly WatchlistEntry[]): CompiledWatchlist {
  const vessels = new Map<string, WatchlistEntry>();
  const ips: { entry: WatchlistEntry; range: IpRange }[] = [];
  const domains = new Map<string, WatchlistEntry>();
  const asns = new Map<number, WatchlistEntry>();
  const countries = new Map<string, WatchlistEntry>();
  const lineEntries: WatchlistEntry[] = [];
  const lineCoordinates: Position[][] = [];
  for (const entry of entries) {
    switch (entry.entity_type) {
      case 'vessel':
        vessels.set(String(entry.value), entry);
        break;
      case 'ip': {
        const range = ipRangeOf(String(entry.value));
        if (range) ips.push({ entry, range });
        break;
      }
      case 'domain':
        domains.set(String(entry.value), entry);
        break;
      case 'asn':
        asns.set(Number(entry.value), entry);
        break;
      case 'country':
        countries.set(String(entry.value), entry);
        break;
      case 'line':
        if (entry.line && entry.line.vertices.length >= 2) {
          lineEntries.push(entry);
          lineCoordinates.push(entry.line.vertices);
        }
        break;
    }
  }
  const index = openLineIndex(
    buildLineIndex({
      type: 'FeatureCollection',
      features: lineCoordinates.map((coordinates) => ({
        type: 'Feature',
        properties: null,
        geometry: { type: 'LineString', coordinates },
      })),
    }),
  );
  return { vessels, ips, domains, asns, countries, lines: { entries: lineEntries, index } };
}

export interface MentionMatch {
  entry: WatchlistEntry;
  /** The first mention (in the order given) that touched it. */
  mention: Mention;
}

/** The entries the mentions touch, each once, in the order of the mentions that first touched them. */
export function matchMentions(compiled: CompiledWatchlist, mentions: readonly Mention[]): MentionMatch[] {
  const out: MentionMatch[] = [];
  const seen = new Set<string>();
  const touch = (entry: WatchlistEntry | undefined, mention: Mention) => {
    if (!entry || seen.has(entry.entry_id)) return;
    seen.add(entry.entry_id);
    out.push({ entry, mention });
  };
  for (const mention of mentions) {
    if (mention.type === 'mmsi') touch(compiled.vessels.get(mention.value), mention);
    else if (mention.type === 'ip') {
      // A mention is one address (normaliseIp's): its own /32 or /128.
      const address = ipRangeOf(mention.value);
      if (address) for (const { entry, range } of compiled.ips) if (inRange(address, range)) touch(entry, mention);
    } else if (mention.type === 'domain') {
      const domain = normaliseDomain(mention.value);
      // The domain, then each parent: a.b.example.com, b.example.com, example.com, com.
      for (let at = 0; domain && at >= 0; at = domain.indexOf('.', at) + 1 || -1)
        touch(compiled.domains.get(domain.slice(at)), mention);
    }
  }
  return out;
}

export interface LineMatch {
  entry: WatchlistEntry;
  /** Metres from the position to the nearest point of the line's kept vertices (rounded). */
  distance_m: number;
  nearest: { lat: number; lon: number };
}

export interface PositionMatch {
  /** The vessel entry of the position's MMSI, if it is watched. */
  vessel: WatchlistEntry | null;
  /** The watched lines within the distance, nearest first. */
  lines: LineMatch[];
}

/** What a vessel's position touches: its own entry, and the watched lines within `maxMetres` (WATCH_LINE_DISTANCE_M unless given). */
export function matchPosition(
  compiled: CompiledWatchlist,
  at: { mmsi?: string | number | null; lat: number; lon: number },
  maxMetres: number = WATCH_LINE_DISTANCE_M,
): PositionMatch {
  const mmsi = at.mmsi === null || at.mmsi === undefined ? null : mmsiOf({ mmsi: at.mmsi });
  const lines = linesNear(compiled.lines.index, at, maxMetres).map((hit) => ({
    entry: compiled.lines.entries[Number(hit.line.line_id)]!,
    distance_m: hit.distance_m,
    nearest: hit.nearest,
  }));
  return { vessel: (mmsi && compiled.vessels.get(mmsi)) || null, lines };
}

/** The `asn` and `country` entries an IP's geography touches (asn first). */
export function matchGeography(
  compiled: CompiledWatchlist,
  at: { asn?: number | null; country?: string | null },
): WatchlistEntry[] {
  const asn = at.asn === null || at.asn === undefined ? undefined : compiled.asns.get(at.asn);
  const country = at.country ? compiled.countries.get(at.country.trim().toUpperCase()) : undefined;
  return [asn, country].filter((e): e is WatchlistEntry => e !== undefined);
}
