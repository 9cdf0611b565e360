/**
 * The vessel lists (docs/vessels.md): recently seen, or seen in an area and time (the area
 * index, one Query per grid cell); dark (silent now, and AIS gaps) and loitering (episodes, kept
 * by the vessel tracker).
 */
import {
  cellOf,
  episodesEndedBetween,
  getVessel,
  positionsInCell,
  VESSEL_CELL_DEGREES,
  vesselsSeenBetween,
  type StoredEpisode,
  type StoredPosition,
  type SeenVessel,
} from '../../db/vessels/index.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { hoursAgo, summaryOf } from './summary.js';
import { metresBetween } from '../../geo/distance.js';
import { BEHAVIOUR } from './track-analysis.js';

/**
 * Vessels heard in the window (most recent first; those that sent static data only among them),
 * or, with a circle, those with a position inside it.
 */
export async function listVessels(
  tenantId: TenantId,
  q: { hours: number; limit: number; offset: number; lat?: number; lon?: number; radius_km?: number },
  nowMs = Date.now(),
) {
  const from = hoursAgo(q.hours, nowMs);
  const to = new Date(nowMs).toISOString();
  if (q.lat === undefined || q.lon === undefined) {
    return (await vesselsSeenBetween(tenantId, from, to, q.offset + q.limit))
      .slice(q.offset)
      .map((v) => summaryOf(v, nowMs));
  }
  const centre = { lat: q.lat, lon: q.lon };
  const radiusM = (q.radius_km ?? 10) * 1000;
  const seen = await positionsInArea(tenantId, centre, radiusM, from, to);
  const mmsis = [...new Set(seen.sort((a, b) => b.occurred_at.localeCompare(a.occurred_at)).map((p) => p.mmsi))].slice(
    q.offset,
    q.offset + q.limit,
  );
  const vessels = await Promise.all(mmsis.map((m) => getVessel(tenantId, m)));
  return vessels.filter((v): v is SeenVessel => v?.last_seen != null).map((v) => summaryOf(v, nowMs));
}

/** Positions within `radiusM` of a point in a time range: one Query per grid cell the circle touches. */
export async function positionsInArea(
  tenantId: TenantId,
  at: { lat: number; lon: number },
  radiusM: number,
  from: string,
  to: string,
): Promise<StoredPosition[]> {
  const dLat = radiusM / 111_320;
  const dLon = radiusM / (111_320 * Math.max(0.01, Math.cos((at.lat * Math.PI) / 180)));
  const cells = new Set<string>();
  for (let lat = at.lat - dLat; lat <= at.lat + dLat + VESSEL_CELL_DEGREES; lat += VESSEL_CELL_DEGREES) {
    for (let lon = at.lon - dLon; lon <= at.lon + dLon + VESSEL_CELL_DEGREES; lon += VESSEL_CELL_DEGREES) {
      cells.add(cellOf(Math.min(lat, at.lat + dLat), Math.min(lon, at.lon + dLon)));
    }
  }
  const found = await Promise.all([...cells].map((c) => positionsInCell(tenantId, c, from, to, 5000)));
  return found.flat().filter((p) => metresBetween(at, p) <= radiusM);
}

/** Vessels dark now (silent after sending positions), and the gaps and loitering episodes that ended in the window, latest first. */
export async function darkVessels(
  tenantId: TenantId,
  q: { kind: 'dark' | 'loitering' | 'all'; hours: number; limit: number },
  nowMs = Date.now(),
) {
  const from = hoursAgo(q.hours, nowMs);
  const to = new Date(nowMs).toISOString();
  const silentSince = new Date(nowMs - BEHAVIOUR.gapMinutes * 60_000).toISOString();
  const wantDark = q.kind !== 'loitering';
  const wantLoiter = q.kind !== 'dark';
  const [silent, gaps, loitering] = await Promise.all([
    wantDark ? vesselsSeenBetween(tenantId, from, silentSince, q.limit) : [],
    wantDark ? episodesEndedBetween(tenantId, 'gap', from, to, q.limit) : [],
    wantLoiter ? episodesEndedBetween(tenantId, 'loitering', from, to, q.limit) : [],
  ]);
  const strip = ({ kind: _k, ...e }: StoredEpisode) => e;
  return {
    window: { from, to },
    // A vessel that never sent a position is not dark: it says where it is nowhere, not less.
    dark_now: silent.filter((v) => v.last_seen !== null).map((v) => summaryOf(v, nowMs)),
    gaps: gaps.map(strip),
    loitering: loitering.map(strip),
  };
}
