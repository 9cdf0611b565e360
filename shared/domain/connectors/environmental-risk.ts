/**
 * Environmental risk (docs/connectors.md, "Environmental risk"): for each of the tenant's
 * environments, the hazards its connectors keep now near its point or its lines: earthquakes of
 * the last days, GDACS events that went on within them, NWS alerts in force. Read from the
 * sources of the tenant's `usgs-quakes`, `gdacs` and `nws-alerts` connectors (the public ones,
 * kept by any tenant's connector of the public source, for a feed it has none of), through the
 * hazard records' time index: only the window is read, never a whole source.
 *
 * Costs: 1 Query for the connectors; per source 1 Query of the time index (more pages only past
 * 1 MB of records in the window); 1 Query of the environments and 1 of the files with lines, each
 * file's line index from S3 once per container.
 */
import { feedRecordsSince } from '../../db/feed-records.js';
import { NotFoundError } from '../../errors.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { ENVIRONMENT_NOT_FOUND } from '../sites/index.js';
import { sourcesOfFeeds } from './connector-view.js';
import {
  graver,
  HAZARD_FEED_DEFS,
  HAZARD_FEEDS,
  HAZARD_LEVELS,
  nwsEnd,
  type HazardFeed,
  type HazardFeedDef,
  type HazardLevel,
  type HazardRecords,
  type HazardStory,
} from './hazard-feeds.js';
import { hazardsNear, tenantPlaces, type Hazard, type HazardPlace } from './hazard-places.js';

/** Records of one source read at most per request (the latest in the window). */
export const MAX_RECORDS_PER_SOURCE = 5000;

export interface RiskOptions {
  environment_id?: string;
  days: number;
  radius_km?: number;
  min_magnitude: number;
  limit: number;
}

export interface RiskHazard {
  feed: HazardFeed;
  hazard: string;
  record_id: string;
  title: string;
  level: Exclude<HazardLevel, 'none'>;
  occurred_at: string;
  distance_km: number;
  near: Pick<HazardPlace, 'kind' | 'id' | 'name'>;
  location: { lat: number; lon: number };
  url: string | null;
  details: Record<string, unknown>;
}

export interface EnvironmentRisk {
  environment_id: string;
  name: string;
  located: boolean;
  level: HazardLevel;
  hazards: RiskHazard[];
  hazards_total: number;
}

export interface EnvironmentalRisk {
  generated_at: string;
  since: string;
  environments: EnvironmentRisk[];
  sources: Record<HazardFeed, string[]>;
  truncated: boolean;
}

const rank = (level: HazardLevel) => HAZARD_LEVELS.indexOf(level);

interface ShownHazard {
  feed: HazardFeed;
  id: string;
  story: HazardStory;
}

/** The records of `feed`'s sources whose indexed time is at least `from`; whether a source held more than was read. */
async function recordsSince<F extends HazardFeed>(
  sources: readonly string[],
  from: string,
): Promise<{ records: HazardRecords[F][]; truncated: boolean }> {
  const read = await Promise.all(
    sources.map((s) => feedRecordsSince<HazardRecords[F]>(s, from, MAX_RECORDS_PER_SOURCE)),
  );
  return { records: read.flat(), truncated: read.some((r) => r.length >= MAX_RECORDS_PER_SOURCE) };
}

/** Which of `feed`'s records are shown, as hazards with their stories. */
function hazardsOf<F extends HazardFeed>(
  feed: F,
  records: readonly HazardRecords[F][],
  keep: (r: HazardRecords[F]) => boolean,
  radiusKm: number | undefined,
): Hazard<ShownHazard>[] {
  const def: HazardFeedDef<HazardRecords[F]> = HAZARD_FEED_DEFS[feed];
  const seen = new Set<string>();
  return records.flatMap((r) => {
    // A record in two sources (the public one and a mirror) is one hazard.
    const site = keep(r) && !seen.has(r.id) ? def.site(r) : null;
    if (!site) return [];
    seen.add(r.id);
    return [
      {
        record: { feed, id: r.id, story: def.story(r) },
        key: `${feed}#${r.id}`,
        site,
        radiusKm: radiusKm ?? def.radiusKm(r, {}),
      },
    ];
  });
}

export async function environmentalRisk(
  tenantId: TenantId,
  nowMs: number,
  options: RiskOptions,
): Promise<EnvironmentalRisk> {
  const since = new Date(nowMs - options.days * 86_400_000).toISOString();
  const now = new Date(nowMs).toISOString();
  const sources = await sourcesOfFeeds(tenantId, HAZARD_FEEDS);
  const [places, quakes, events, alerts] = await Promise.all([
    tenantPlaces(tenantId, options.environment_id),
    recordsSince<'usgs-quakes'>(sources['usgs-quakes'], since),
    recordsSince<'gdacs'>(sources.gdacs, since),
    // An alert's indexed time is its end: in force now is a window starting now.
    recordsSince<'nws-alerts'>(sources['nws-alerts'], now),
  ]);
  if (options.environment_id && places.environments.length === 0) throw new NotFoundError(ENVIRONMENT_NOT_FOUND);

  const hazards: Hazard<ShownHazard>[] = [
    ...hazardsOf(
      'usgs-quakes',
      quakes.records,
      (q) => q.magnitude !== null && q.magnitude >= options.min_magnitude,
      options.radius_km,
    ),
    ...hazardsOf('gdacs', events.records, () => true, options.radius_km),
    ...hazardsOf('nws-alerts', alerts.records, (a) => (nwsEnd(a) ?? '') > now, options.radius_km),
  ];
  const matches = await hazardsNear(places, hazards);

  const byEnvironment = new Map<string, RiskHazard[]>();
  for (const m of matches) {
    const { story } = m.record;
    const list = byEnvironment.get(m.place.environment_id) ?? [];
    list.push({
      feed: m.record.feed,
      hazard: story.hazard,
      record_id: m.record.id,
      title: story.title,
      level: story.level === 'none' ? 'low' : story.level,
      occurred_at: story.occurred_at,
      distance_km: m.distance_km,
      near: { kind: m.place.kind, id: m.place.id, name: m.place.name },
      location: { lat: Math.round(m.site.lat * 1e6) / 1e6, lon: Math.round(m.site.lon * 1e6) / 1e6 },
      url: story.url,
      details: story.details,
    });
    byEnvironment.set(m.place.environment_id, list);
  }
  const located = new Set([
    ...places.points.map((p) => p.environment_id),
    ...places.files.map((f) => f.environment_id),
  ]);
  const environments = places.environments.map((e): EnvironmentRisk => {
    const found = (byEnvironment.get(e.environment_id) ?? []).sort(
      (a, b) => rank(b.level) - rank(a.level) || a.distance_km - b.distance_km,
    );
    return {
      environment_id: e.environment_id,
      name: e.name,
      located: located.has(e.environment_id),
      level: found.reduce<HazardLevel>((level, h) => graver(level, h.level), 'none'),
      hazards: found.slice(0, options.limit),
      hazards_total: found.length,
    };
  });
  environments.sort((a, b) => rank(b.level) - rank(a.level) || a.name.localeCompare(b.name));
  return {
    generated_at: now,
    since,
    environments,
    sources,
    truncated: quakes.truncated || events.truncated || alerts.truncated,
  };
}
