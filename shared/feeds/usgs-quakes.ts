/**
 * USGS earthquakes, parsed from the GeoJSON summary feeds
 * (https://earthquake.usgs.gov/earthquakes/feed/v1.0/geojson.php): a FeatureCollection whose
 * features carry the event id, `properties` (mag, place, time and updated in epoch ms, url, title,
 * alert, tsunami, type...) and a Point `[longitude, latitude, depth_km]`. And the pure matching of
 * quakes to places by great-circle distance.
 */
import { metresBetween } from '../geo/distance.js';
import { type FeedParse, type FeedProblem, FeedFormatError, isObject, readJson, text } from './feed-document.js';

export const USGS_QUAKES_URL = 'https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_day.geojson';
export const USGS_QUAKES_DESCRIPTION =
  'USGS earthquakes of the past day (all magnitudes), GeoJSON summary feed, updated every minute: time, magnitude, place, epicentre and depth, PAGER alert, tsunami flag. Public domain (US Government).';

/** PAGER's estimate of the impact (fatalities and losses), when USGS has one. */
export type PagerAlert = 'green' | 'yellow' | 'orange' | 'red';
const ALERTS: readonly string[] = ['green', 'yellow', 'orange', 'red'];

export interface QuakeRecord {
  /** USGS's event id (network + code, e.g. `us6000ip57`): the same on every poll while USGS updates the event. */
  id: string;
  /** Origin time, ISO 8601 UTC. */
  time: string;
  /** When USGS last changed the event, ISO 8601 UTC: a later value on a re-poll is a revision. */
  updated: string;
  /** Null when USGS has no magnitude yet. */
  magnitude: number | null;
  place: string | null;
  lat: number;
  lon: number;
  /** Kilometres below the surface; slightly negative for some shallow events (above the geoid). Null when absent. */
  depth_km: number | null;
  /**
   * USGS's tsunami flag: set for large events in oceanic regions. It is not a tsunami warning and
   * does not say a tsunami happened (docs/feeds.md); warnings come from the tsunami centres.
   */
  tsunami: boolean;
  alert: PagerAlert | null;
  /** `earthquake`, `quarry blast`, `explosion`, `ice quake`... */
  event_type: string | null;
  url: string;
  title: string;
  source_url: string;
}

const FEED = 'USGS earthquakes GeoJSON';
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** One feature as a record, or why it cannot be one. */
function quake(f: unknown, sourceUrl: string): QuakeRecord | string {
  if (!isObject(f)) return 'not a GeoJSON Feature';
  const p = f.properties;
  const g = f.geometry;
  if (!isObject(p)) return 'no properties';
  if (!finite(p.time)) return `time is not epoch milliseconds (${JSON.stringify(p.time)})`;
  if (!finite(p.updated)) return `updated is not epoch milliseconds (${JSON.stringify(p.updated)})`;
  if (p.mag !== null && p.mag !== undefined && !finite(p.mag)) return `mag is not a number (${JSON.stringify(p.mag)})`;
  if (!text(p.url)) return 'no url';
  if (!text(p.title)) return 'no title';
  // The flag is 0 or 1; feeds before about 2016 sent null for "not set".
  if (p.tsunami !== 0 && p.tsunami !== 1 && p.tsunami !== null)
    return `tsunami is not 0 or 1 (${JSON.stringify(p.tsunami)})`;
  if (p.alert !== null && p.alert !== undefined && !(typeof p.alert === 'string' && ALERTS.includes(p.alert)))
    return `alert is not a PAGER level (${JSON.stringify(p.alert)})`;
  if (!isObject(g) || g.type !== 'Point' || !Array.isArray(g.coordinates)) return 'geometry is not a Point';
  const [lon, lat, depth] = g.coordinates as unknown[];
  if (!finite(lon) || !finite(lat) || Math.abs(lat) > 90 || Math.abs(lon) > 180)
    return `coordinates are not a longitude and latitude (${JSON.stringify(g.coordinates)})`;
  if (depth !== undefined && depth !== null && !finite(depth))
    return `depth is not a number (${JSON.stringify(depth)})`;
  return {
    id: f.id as string,
    time: new Date(p.time).toISOString(),
    updated: new Date(p.updated).toISOString(),
    magnitude: finite(p.mag) ? p.mag : null,
    place: text(p.place),
    lat,
    lon,
    depth_km: finite(depth) ? depth : null,
    tsunami: p.tsunami === 1,
    alert: (p.alert ?? null) as PagerAlert | null,
    event_type: text(p.type),
    url: p.url as string,
    title: p.title as string,
    source_url: sourceUrl,
  };
}

/** The events of a USGS GeoJSON summary feed; throws FeedFormatError if the body is not a FeatureCollection. */
export function parseUsgsQuakes(body: string, sourceUrl: string): FeedParse<QuakeRecord> {
  const doc = readJson(body, FEED);
  if (!isObject(doc) || doc.type !== 'FeatureCollection' || !Array.isArray(doc.features)) {
    throw new FeedFormatError(
      FEED,
      `expected a GeoJSON FeatureCollection with features (got ${isObject(doc) ? `type ${JSON.stringify(doc.type)}` : Array.isArray(doc) ? 'an array' : typeof doc})`,
    );
  }
  const records: QuakeRecord[] = [];
  const problems: FeedProblem[] = [];
  const seen = new Set<string>();
  doc.features.forEach((f: unknown, entry) => {
    const id = isObject(f) ? text(f.id) : null;
    if (!id) return problems.push({ entry, id: null, reason: 'no event id' });
    if (seen.has(id)) return problems.push({ entry, id, reason: 'the same event twice' });
    const r = quake(f, sourceUrl);
    if (typeof r === 'string') return problems.push({ entry, id, reason: r });
    seen.add(id);
    records.push(r);
  });
  return { records, problems };
}

export interface Place {
  id: string;
  lat: number;
  lon: number;
}

export interface QuakeNear<P extends Place = Place> {
  quake: QuakeRecord;
  point: P;
  /** Great-circle distance from the epicentre, km (3 decimals). */
  distance_km: number;
}

/** Every quake and point at most `radiusKm` apart (epicentre to point, great circle), nearest first. */
export function quakesNear<P extends Place>(
  quakes: readonly QuakeRecord[],
  points: readonly P[],
  radiusKm: number,
): QuakeNear<P>[] {
  const near: QuakeNear<P>[] = [];
  for (const quake of quakes) {
    for (const point of points) {
      const km = metresBetween(quake, point) / 1000;
      if (km <= radiusKm) near.push({ quake, point, distance_km: Math.round(km * 1000) / 1000 });
    }
  }
  return near.sort((a, b) => a.distance_km - b.distance_km);
}
