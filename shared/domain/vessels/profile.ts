/**
 * What the product knows of a vessel (docs/vessels.md): its identity (what it said in static
 * reports; its flag from its MMSI), its last position and status, its track over a window and the
 * behaviour found there (shared/domain/vessels/track-analysis.ts), and how close it came to the
 * tenant's infrastructure lines. Nothing is invented: what the data cannot tell is said in `notes`.
 */
import turfLength from '@turf/length';
import { lineString } from '@turf/helpers';
import { getVessel, trackBetween, type StoredPosition, type StoredVessel } from '../../db/vessels/index.js';
import { NotFoundError } from '../../errors.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { flagOfMmsi, mmsiKind } from '../../vocabulary/maritime-mid.js';
import { hoursAgo, silentMinutes, VESSEL_NOT_FOUND } from './summary.js';
import { shipTypeOf } from '../../vocabulary/ship-types.js';
import { lineFiles, nearestLines, type LineFile, type NearLine } from '../infrastructure/index.js';
import { analyseTrack, BEHAVIOUR } from './track-analysis.js';

/** Positions a profile reads at most (the newest of its window). */
const PROFILE_POSITIONS = 5000;
/** Lines within this distance count as near. */
const NEAR_LINE_M = 10_000;
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

export async function vesselProfile(tenantId: TenantId, mmsi: string, hours: number, nowMs = Date.now()) {
  const vessel = await getVessel(tenantId, mmsi);
  // A vessel known from static data only (sent every 6 minutes, often before any position) is answered too.
  if (!vessel) throw new NotFoundError(VESSEL_NOT_FOUND);
  const to = new Date(nowMs).toISOString();
  const from = hoursAgo(hours, nowMs);
  const [track, files] = await Promise.all([newestTrack(tenantId, mmsi, from, to), lineFiles(tenantId)]);
  const type = shipTypeOf(vessel.identity?.ship_type ?? null);
  const behaviour = analyseTrack(track.positions, type.typicalSpeedKnots.max);
  const notes: string[] = [];
  if (!vessel.identity)
    notes.push('No static data (AIS type 5, 19 or 24) received yet: name, call sign, IMO and ship type are unknown.');
  if (!vessel.last_position)
    notes.push(
      'No position report received yet (only static data): last position, track, behaviour and proximity are unknown.',
    );
  else if (track.positions.length === 0) notes.push(`No positions in the last ${hours} hours.`);
  if (files.length === 0) notes.push('The tenant has no infrastructure lines: proximity cannot be judged.');
  const infrastructure = await proximity(tenantId, vessel, track.positions, files);
  const silent = silentMinutes(vessel, nowMs);
  const lastLoiter = behaviour.loitering[behaviour.loitering.length - 1];
  const last = track.positions[track.positions.length - 1];
  const speeds = track.positions.map((p) => p.sog_knots).filter((s): s is number => s !== null);
  const lons = track.positions.map((p) => p.lon);
  const lats = track.positions.map((p) => p.lat);
  return {
    mmsi,
    mmsi_kind: mmsiKind(mmsi),
    flag: flagOfMmsi(mmsi),
    identity: vessel.identity
      ? {
          ...vessel.identity,
          ship_type_category: type.category,
          ship_type_description: type.description,
          length_m: vessel.identity.dimensions
            ? vessel.identity.dimensions.to_bow + vessel.identity.dimensions.to_stern
            : null,
          beam_m: vessel.identity.dimensions
            ? vessel.identity.dimensions.to_port + vessel.identity.dimensions.to_starboard
            : null,
        }
      : null,
    first_seen: vessel.first_seen,
    last_seen: vessel.last_seen,
    last_position: vessel.last_position,
    status: {
      dark: silent !== null && silent > BEHAVIOUR.gapMinutes,
      silent_minutes: silent,
      loitering: Boolean(lastLoiter && last && lastLoiter.end === last.occurred_at),
    },
    window: { from, to, hours },
    track: {
      positions: track.positions.length,
      distance_km:
        track.positions.length >= 2
          ? round(turfLength(lineString(track.positions.map((p) => [p.lon, p.lat])), { units: 'kilometers' }), 3)
          : 0,
      max_sog_knots: speeds.length ? Math.max(...speeds) : null,
      mean_sog_knots: speeds.length ? round(speeds.reduce((s, v) => s + v, 0) / speeds.length, 2) : null,
      bbox: track.positions.length
        ? [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)]
        : null,
      truncated: track.truncated,
    },
    behaviour: {
      gaps: behaviour.gaps,
      loitering: behaviour.loitering.map(({ detected_at: _d, detected_event_id: _e, from: _f, to: _t, ...l }) => l),
      speed_anomalies: behaviour.speed_anomalies,
      zone_entries: behaviour.zone_entries,
      thresholds: { ...BEHAVIOUR, typical_max_knots: type.typicalSpeedKnots.max },
    },
    infrastructure,
    notes,
  };
}

/** The newest positions of a window, oldest first: a window with more than a profile reads keeps its end. */
async function newestTrack(tenantId: TenantId, mmsi: string, from: string, to: string) {
  const all = await trackBetween(tenantId, mmsi, from, to, PROFILE_POSITIONS + 1);
  const truncated = all.length > PROFILE_POSITIONS;
  return { positions: truncated ? all.slice(all.length - PROFILE_POSITIONS) : all, truncated };
}

async function proximity(tenantId: TenantId, vessel: StoredVessel, track: StoredPosition[], files: LineFile[]) {
  if (files.length === 0) return { nearest_lines: [] as NearLine[], closest_approach: null };
  const nearest_lines = vessel.last_position
    ? await nearestLines(tenantId, vessel.last_position, NEAR_LINE_M, 5, files)
    : [];
  let closest: { line_id: string; name: string | null; kind: string; distance_m: number; at: string } | null = null;
  // At most about 1000 positions are measured (every n-th of a longer track).
  const step = Math.max(1, Math.floor(track.length / 1000));
  for (let i = 0; i < track.length; i += step) {
    const p = track[i]!;
    const [hit] = await nearestLines(tenantId, p, closest ? closest.distance_m : NEAR_LINE_M, 1, files);
    if (hit && (!closest || hit.distance_m < closest.distance_m))
      closest = { line_id: hit.line_id, name: hit.name, kind: hit.kind, distance_m: hit.distance_m, at: p.occurred_at };
  }
  return { nearest_lines, closest_approach: closest };
}
