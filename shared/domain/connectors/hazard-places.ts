/**
 * A tenant's places as hazards see them (docs/connectors.md, "Hazard alerts"): its environments'
 * reference points and its infrastructure lines, and which of them a hazard is near. A hazard is a
 * point (an epicentre, a GDACS event's centroid) or an area (an NWS warning polygon); a place is
 * near it within the hazard's radius (great circle; a place inside an area, or a line crossing it,
 * is at 0 km). Each environment counts once per hazard, at its nearest place: its own point or one
 * of its lines. Used by the connectors' alerts and by `GET /api/v1/environmental-risk` alike.
 */
import type { Polygon } from 'geojson';
import { listEnvironments } from '../../db/environments.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { metresBetween } from '../../geo/distance.js';
import { metresFromArea, widenedBox } from '../infrastructure/index.js';
import { lineFiles, linesNearAreaIn, linesNearPointIn, type LineFile, type NearLine } from '../infrastructure/index.js';

/** A degree of latitude, km, on the mean sphere (the bound is widened by a kilometre for the rounding). */
const KM_PER_DEGREE = 111.195;
/** Environments read, at most (a tenant has far fewer). */
const MAX_ENVIRONMENTS = 1000;

export interface HazardPlace {
  id: string;
  environment_id: string;
  name: string;
  kind: 'environment' | 'line';
  lat: number;
  lon: number;
}

/** Where a hazard is: a point, or an area with a point standing for it. */
export interface HazardSite {
  lat: number;
  lon: number;
  area: Polygon | null;
}

export interface Hazard<R> {
  record: R;
  /** Names the hazard for "once per hazard and environment". */
  key: string;
  site: HazardSite;
  radiusKm: number;
}

export interface HazardMatch<R> extends Hazard<R> {
  place: HazardPlace;
  distance_km: number;
}

export interface TenantPlaces {
  environments: { environment_id: string; name: string; location: { lat: number; lon: number } | null }[];
  points: HazardPlace[];
  files: LineFile[];
}

/** The tenant's environments (one Query) and its files with lines (one Query); of one environment when named. */
export async function tenantPlaces(tenantId: TenantId, environmentId?: string): Promise<TenantPlaces> {
  const [all, files] = await Promise.all([
    listEnvironments(tenantId, {}, { limit: MAX_ENVIRONMENTS, offset: 0 }),
    lineFiles(tenantId),
  ]);
  const environments = all
    .filter((e) => !environmentId || e.environment_id === environmentId)
    .map((e) => ({
      environment_id: e.environment_id,
      name: e.name,
      location: e.location ? { lat: e.location.lat, lon: e.location.lon } : null,
    }));
  const kept = new Set(environments.map((e) => e.environment_id));
  return {
    environments,
    points: environments.flatMap((e) =>
      e.location
        ? [
            {
              id: e.environment_id,
              environment_id: e.environment_id,
              name: e.name,
              kind: 'environment' as const,
              ...e.location,
            },
          ]
        : [],
    ),
    files: files.filter((f) => kept.has(f.environment_id)),
  };
}

const km = (metres: number) => Math.round(metres) / 1000;

/** Every hazard and environment within the hazard's radius, at the environment's nearest place; nearest first. */
export async function hazardsNear<R>(places: TenantPlaces, hazards: readonly Hazard<R>[]): Promise<HazardMatch<R>[]> {
  const names = new Map(places.environments.map((e) => [e.environment_id, e.name]));
  const found: HazardMatch<R>[] = [];
  for (const hazard of hazards) {
    const { site, radiusKm } = hazard;
    // Cheap bounds first: most places are far from most hazards.
    const box = site.area ? widenedBox(site.area, radiusKm * 1000) : null;
    const maybeNear = (p: HazardPlace) =>
      box
        ? p.lon >= box[0] && p.lon <= box[2] && p.lat >= box[1] && p.lat <= box[3]
        : Math.abs(p.lat - site.lat) * KM_PER_DEGREE <= radiusKm + 1;
    for (const place of places.points) {
      if (!maybeNear(place)) continue;
      const metres = site.area ? metresFromArea(site.area, place) : metresBetween(site, place);
      if (metres <= radiusKm * 1000) found.push({ ...hazard, place, distance_km: km(metres) });
    }
    if (places.files.length === 0) continue;
    const lines: NearLine[] = site.area
      ? await linesNearAreaIn(places.files, site.area, radiusKm * 1000)
      : await linesNearPointIn(places.files, site, radiusKm * 1000);
    for (const line of lines) {
      found.push({
        ...hazard,
        place: {
          id: line.line_id,
          environment_id: line.environment_id,
          name: line.name ?? `a line of ${names.get(line.environment_id) ?? 'an environment'}`,
          kind: 'line',
          lat: line.nearest.lat,
          lon: line.nearest.lon,
        },
        distance_km: km(line.distance_m),
      });
    }
  }
  // One per hazard and environment: its nearest place.
  const nearest = new Map<string, HazardMatch<R>>();
  for (const m of found.sort((x, y) => x.distance_km - y.distance_km)) {
    const key = `${m.key}#${m.place.environment_id}`;
    if (!nearest.has(key)) nearest.set(key, m);
  }
  return [...nearest.values()];
}
