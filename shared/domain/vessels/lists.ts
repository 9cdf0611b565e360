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
  type StoredVessel,
} from '../../db/vessels/index.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { hoursAgo, summaryOf } from './summary.js';
import { VESSEL_NAME_READ } from '../../schemas/vessels.js';
import { metresBetween } from '../../geo/distance.js';
import { BEHAVIOUR } from './track-analysis.js';

export interface VesselListQuery {
  hours: number;
  limit: number;
  offset: number;
  lat?: number;
  lon?: number;
  radius_km?: number;
  /** This vessel only. */
  mmsi?: string;
  /** Vessels whose reported name contains this (any case, runs of spaces as one). */
  name?: string;
}

const squeeze = (s: string) => s.trim().replace(/\s+/g, ' ').toUpperCase();

/**
 * Vessels heard in the window (most recent first; those that sent static data only among them),
 * or, with a circle, those with a position inside it; by MMSI (one read) or by a part of the
 * name their static reports gave.
 */
export async function listVessels(tenantId: TenantId, q: VesselListQuery, nowMs = Date.now()) {
  const from = hoursAgo(q.hours, nowMs);
  const to = new Date(nowMs).toISOString();
  const page = (vessels: readonly StoredVessel[]) =>
    vessels.slice(q.offset, q.offset + q.limit).map((v) => summaryOf(v, nowMs));
  const named = q.name === undefined ? undefined : squeeze(q.name);
  // Heard in the window: its last position, or its last static report while it has sent none.
  const keep = (v: StoredVessel | null): v is StoredVessel =>
    v !== null &&
    (v.last_seen ?? v.identity?.reported_at ?? v.first_seen) >= from &&
    (q.mmsi === undefined || v.mmsi === q.mmsi) &&
    (named === undefined || squeeze(v.identity?.name ?? '').includes(named));
  if (q.lat === undefined || q.lon === undefined) {
    if (q.mmsi !== undefined) return page([await getVessel(tenantId, q.mmsi)].filter(keep));
    if (named !== undefined) return page((await vesselsSeenBetween(tenantId, from, to, VESSEL_NAME_READ)).filter(keep));
    return page(await vesselsSeenBetween(tenantId, from, to, q.offset + q.limit));
  }
  const centre = { lat: q.lat, lon: q.lon };
  const radiusM = (q.radius_km ?? 10) * 1000;
  const seen = await positionsInArea(tenantId, centre, radiusM, from, to);
  const mmsis = [...new Set(seen.sort((a, b) => b.occurred_at.localeCompare(a.occurred_at)).map((p) => p.mmsi))].filter(
    (m) => q.mmsi === undefined || m === q.mmsi,
  );
  // Without a name every vessel read is listed: only the page's are read.
  const read = named === undefined ? mmsis.slice(q.offset, q.offset + q.limit) : mmsis.slice(0, VESSEL_NAME_READ);
  const vessels = (await Promise.all(read.map((m) => getVessel(tenantId, m)))).filter(keep);
  return named === undefined ? vessels.map((v) => summaryOf(v, nowMs)) : page(vessels);
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
