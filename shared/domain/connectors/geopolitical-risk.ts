/**
 * The geopolitical overlay (docs/connectors.md, "Geopolitical risk"): country-level advisories
 * and sanctions programmes, as the tenant's `state-dept-advisories`, `canada-advisory`, `ofac-sdn`
 * and `geopolitical-list` connectors keep them, laid over the tenant's environments (by the country
 * each names), the vessels it sees and watches (by the flag of their MMSI, and by their IMO number
 * and MMSI on a sanctions list) and the IP addresses it watches (by their country in the offline
 * IP data, shared/adapters/ip-geo.ts).
 *
 * Costs (DynamoDB calls per request): 1 Query of the connectors, 1 of the environments, 1 of the
 * vessels seen in the last 7 days, 1 of the watchlist; then per advisory source 1 Query and per
 * sanctions source 1 Query (all countries, or `country=`'s prefix only), and ⌈keys / 100⌉
 * BatchGetItems for the sources' manifests (a record its source no longer lists is not current)
 * and the vessels' identifiers on the sanctions lists. With the public sources only, 7 calls. The
 * IP data is read from files, not the table.
 */
import { listEnvironments } from '../../db/environments.js';
import { feedRecords, feedRecordsAt } from '../../db/feed-records.js';
import { vesselsSeenBetween } from '../../db/vessels/index.js';
import { allWatchlistEntries } from '../../db/watchlist/index.js';
import { lookupIp } from '../../adapters/ip-geo.js';
import {
  ADVISORY_PREFIX,
  MANIFEST_ID,
  PROGRAMME_PREFIX,
  validImo,
  vesselImoId,
  vesselMmsiId,
  type AdvisoryLevel,
  type AdvisoryRecord,
  type ManifestRecord,
  type GeoSourceKind,
  type SanctionedVesselRecord,
  type SanctionsProgrammeRecord,
} from '../../feeds/geopolitical-records.js';
import { flagOfMmsi } from '../../vocabulary/maritime-mid.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { sourcesOfFeeds } from './connector-view.js';

/** The most environments, vessels and watched addresses one answer assesses (`truncated` says when there were more). */
export const MAX_OVERLAY_ENVIRONMENTS = 500;
export const MAX_OVERLAY_VESSELS = 500;
/** A source's advisories (one per country) and programmes, at most. */
const MAX_ADVISORIES = 400;
const MAX_PROGRAMMES = 2000;
/** Vessels "seen": a position or identity in the last 7 days. */
const SEEN_MS = 7 * 86_400_000;

export type CountryAdvisory = Pick<AdvisoryRecord, 'level' | 'title' | 'summary' | 'updated' | 'url' | 'source'>;

export type CountryProgramme = Pick<SanctionsProgrammeRecord, 'programme' | 'summary' | 'listed' | 'url' | 'source'>;

export interface CountryOverlay {
  country: string;
  /** The highest level any source gives it, or null when no source has an advisory for it. */
  level: AdvisoryLevel | null;
  advisories: CountryAdvisory[];
  sanctions: CountryProgramme[];
}

interface Placed {
  country: string | null;
  level: AdvisoryLevel | null;
  sanctioned_country: boolean;
}

export interface EnvironmentOverlay extends Placed {
  environment_id: string;
  name: string;
  type: string;
}

export interface VesselListing {
  listing_id: string;
  name: string;
  programmes: string[];
  matched_by: ('imo' | 'mmsi')[];
  listed_flag: string | null;
  listed_flag_name: string | null;
  source: GeoSourceKind;
}

export interface VesselOverlay extends Placed {
  mmsi: string;
  name: string | null;
  imo: string | null;
  /** The flag of the MMSI's MID (ITU), as `country` is; null when the MID is not allocated. */
  flag_name: string | null;
  watched: boolean;
  last_seen: string | null;
  /** The sanctions listings naming this vessel by IMO number or MMSI. */
  sanctioned: boolean;
  listings: VesselListing[];
}

export interface IpOverlay extends Placed {
  entry_id: string;
  value: string;
  label: string | null;
  /** Whether a country could be given: a range, or an address not in the data, is not located. */
  located: boolean;
}

export interface GeopoliticalRisk {
  country: string | null;
  countries: CountryOverlay[];
  environments: EnvironmentOverlay[];
  vessels: VesselOverlay[];
  ips: IpOverlay[];
  truncated: { environments: boolean; vessels: boolean };
  sources: { advisories: string[]; sanctions: string[] };
}

const maxLevel = (levels: readonly AdvisoryLevel[]): AdvisoryLevel | null =>
  levels.length === 0 ? null : (Math.max(...levels) as AdvisoryLevel);

/** An IMO number as AIS reported it, when it is one (AIS carries 30 bits: garbage is common). */
function imoOf(imo: number | null | undefined): string | null {
  const text = imo ? String(imo).padStart(7, '0') : null;
  return text && validImo(text) ? text : null;
}

/** Every record of `prefix` in each source, with its source, read in parallel (one Query each). */
async function recordsOf<R>(
  sources: readonly string[],
  prefix: string,
  limit: number,
): Promise<{ source: string; record: R }[]> {
  return (
    await Promise.all(
      sources.map(async (source) =>
        (await feedRecords<R>(source, limit, { idPrefix: prefix })).map((record) => ({ source, record })),
      ),
    )
  ).flat();
}

export async function geopoliticalRisk(
  tenantId: TenantId,
  nowMs: number,
  country: string | null,
): Promise<GeopoliticalRisk> {
  const feeds = await sourcesOfFeeds(tenantId, [
    'state-dept-advisories',
    'canada-advisory',
    'ofac-sdn',
    'geopolitical-list',
  ]);
  // A tenant's own list and Canada's country documents have no public source: without a connector there is nothing to read.
  const own = feeds['geopolitical-list'].filter((s) => s !== 'geopolitical-list');
  const canada = feeds['canada-advisory'].filter((s) => s !== 'canada-advisory');
  const advisorySources = [...feeds['state-dept-advisories'], ...canada, ...own];
  const sanctionSources = [...feeds['ofac-sdn'], ...own];
  const to = new Date(nowMs).toISOString();
  const from = new Date(nowMs - SEEN_MS).toISOString();
  const [advisories, programmes, environments, seen, watchlist] = await Promise.all([
    recordsOf<AdvisoryRecord>(advisorySources, `${ADVISORY_PREFIX}${country ?? ''}`, country ? 1 : MAX_ADVISORIES),
    recordsOf<SanctionsProgrammeRecord>(
      sanctionSources,
      `${PROGRAMME_PREFIX}${country ? `${country}|` : ''}`,
      MAX_PROGRAMMES,
    ),
    listEnvironments(tenantId, {}, { limit: MAX_OVERLAY_ENVIRONMENTS + 1, offset: 0 }),
    vesselsSeenBetween(tenantId, from, to, MAX_OVERLAY_VESSELS + 1),
    allWatchlistEntries(tenantId),
  ]);

  // Vessels: those seen lately (with what AIS told of them) and those watched.
  const vessels = new Map<
    string,
    { mmsi: string; name: string | null; imo: string | null; watched: boolean; last_seen: string | null }
  >();
  for (const v of seen.slice(0, MAX_OVERLAY_VESSELS)) {
    vessels.set(v.mmsi, {
      mmsi: v.mmsi,
      name: v.identity?.name ?? null,
      imo: imoOf(v.identity?.imo),
      watched: false,
      last_seen: v.last_seen,
    });
  }
  for (const e of watchlist) {
    if (e.entity_type !== 'vessel') continue;
    const mmsi = String(e.value);
    const known = vessels.get(mmsi);
    if (known) known.watched = true;
    else if (vessels.size < MAX_OVERLAY_VESSELS)
      vessels.set(mmsi, { mmsi, name: e.label, imo: null, watched: true, last_seen: null });
  }
  const inScope = (cc: string | null) => country === null || cc === country;
  const wanted = [...vessels.values()].filter((v) => inScope(flagOfMmsi(v.mmsi)?.country_code ?? null));

  // One BatchGetItem (per 100 keys): each source's manifest, and the vessels' identifiers on the sanctions lists.
  const allSources = [...new Set([...advisorySources, ...sanctionSources])];
  const vesselIds = wanted.flatMap((v) => [vesselMmsiId(v.mmsi), ...(v.imo ? [vesselImoId(v.imo)] : [])]);
  const read = await feedRecordsAt<ManifestRecord | SanctionedVesselRecord>([
    ...allSources.map((source) => ({ source, id: MANIFEST_ID })),
    ...feeds['ofac-sdn'].flatMap((source) => vesselIds.map((id) => ({ source, id }))),
  ]);
  const manifests = new Map(
    read.flatMap(({ source, record }) => (record.kind === 'manifest' ? [[source, new Set(record.ids)] as const] : [])),
  );
  // A record its source's latest document no longer lists is not current (a source kept before manifests has none: all count).
  const current = ({ source, record }: { source: string; record: { id: string } }) =>
    manifests.get(source)?.has(record.id) ?? true;
  const listed = read
    .filter((r) => r.record.kind === 'sanctioned_vessel' && current(r))
    .map((r) => r.record as SanctionedVesselRecord);

  const byCountry = new Map<string, CountryOverlay>();
  const overlayOf = (cc: string): CountryOverlay => {
    let o = byCountry.get(cc);
    if (!o) byCountry.set(cc, (o = { country: cc, level: null, advisories: [], sanctions: [] }));
    return o;
  };
  for (const { record: a } of advisories.filter(current))
    overlayOf(a.country).advisories.push({
      level: a.level,
      title: a.title,
      summary: a.summary,
      updated: a.updated,
      url: a.url,
      source: a.source,
    });
  for (const { record: p } of programmes.filter(current))
    overlayOf(p.country).sanctions.push({
      programme: p.programme,
      summary: p.summary,
      listed: p.listed,
      url: p.url,
      source: p.source,
    });
  for (const o of byCountry.values()) {
    o.level = maxLevel(o.advisories.map((a) => a.level));
    o.advisories.sort((a, b) => b.level - a.level);
  }
  const used = new Set<string>(country ? [country] : []);
  const place = (cc: string | null): Placed => {
    if (!cc) return { country: null, level: null, sanctioned_country: false };
    used.add(cc);
    const o = byCountry.get(cc);
    return { country: cc, level: o?.level ?? null, sanctioned_country: (o?.sanctions.length ?? 0) > 0 };
  };

  const envOverlay = environments
    .slice(0, MAX_OVERLAY_ENVIRONMENTS)
    .filter((e) => inScope(e.country))
    .map((e) => ({ environment_id: e.environment_id, name: e.name, type: e.type, ...place(e.country) }));

  const vesselOverlay = wanted.map((v): VesselOverlay => {
    const flag = flagOfMmsi(v.mmsi);
    const byListing = new Map<string, VesselListing>();
    for (const r of listed) {
      const by = [
        ...(r.mmsi === v.mmsi ? (['mmsi'] as const) : []),
        ...(v.imo && r.imo === v.imo ? (['imo'] as const) : []),
      ];
      if (by.length === 0) continue;
      const key = `${r.source}|${r.listing_id}`;
      const had = byListing.get(key);
      if (had) had.matched_by = [...new Set([...had.matched_by, ...by])].sort();
      else
        byListing.set(key, {
          listing_id: r.listing_id,
          name: r.name,
          programmes: r.programmes,
          matched_by: [...by].sort(),
          listed_flag: r.flag,
          listed_flag_name: r.flag_name,
          source: r.source,
        });
    }
    const listings = [...byListing.values()];
    return {
      mmsi: v.mmsi,
      name: v.name ?? listings[0]?.name ?? null,
      imo: v.imo,
      ...place(flag?.country_code ?? null),
      flag_name: flag?.country ?? null,
      watched: v.watched,
      last_seen: v.last_seen,
      sanctioned: listings.length > 0,
      listings,
    };
  });
  vesselOverlay.sort(
    (a, b) =>
      Number(b.sanctioned) - Number(a.sanctioned) || (b.level ?? 0) - (a.level ?? 0) || a.mmsi.localeCompare(b.mmsi),
  );

  const ipEntries = watchlist.filter((e) => e.entity_type === 'ip');
  const ipOverlay = (
    await Promise.all(
      ipEntries.map(async (e): Promise<IpOverlay> => {
        const value = String(e.value);
        const cc = value.includes('/') ? null : (await lookupIp(value)).country;
        return { entry_id: e.entry_id, value, label: e.label, located: cc !== null, ...place(cc) };
      }),
    )
  ).filter((ip) => inScope(ip.country));

  return {
    country,
    countries: [...used]
      .sort()
      .map((cc) => byCountry.get(cc) ?? { country: cc, level: null, advisories: [], sanctions: [] }),
    environments: envOverlay,
    vessels: vesselOverlay,
    ips: ipOverlay,
    truncated: {
      environments: environments.length > MAX_OVERLAY_ENVIRONMENTS,
      vessels: seen.length > MAX_OVERLAY_VESSELS,
    },
    sources: { advisories: advisorySources, sanctions: sanctionSources },
  };
}
