/**
 * What a vessel's track says about its behaviour, from its positions in time order: AIS gaps
 * ("dark" periods), loitering, speeds beyond its type's and jumps no ship can make, and zone
 * entries. Pure and deterministic: the vessel tracker runs it over the window a batch touched to
 * keep the episodes the lists read, and the profile runs it over the window asked for
 * (docs/vessels.md states the thresholds).
 */
import { metresBetween } from '../../geo/distance.js';
import type { StoredPosition } from '../../db/vessels/index.js';

export const BEHAVIOUR = {
  /** Silence longer than this is an AIS gap. Class A ships report every 2 s to 3 min, class B every 30 s to 3 min. */
  gapMinutes: 30,
  /** Loitering: at most this speed over ground (knots)... */
  loiterMaxKnots: 2,
  /** ...staying within this distance (metres) of where it slowed... */
  loiterRadiusM: 1000,
  /** ...for at least this long (minutes). */
  loiterMinutes: 30,
  /** A move between two reports faster than this (knots) is a position jump: no surface ship makes it; spoofing or a wrong fix. */
  jumpKnots: 60,
} as const;

export interface Gap {
  start: string;
  end: string;
  duration_minutes: number;
  from: { lat: number; lon: number };
  to: { lat: number; lon: number };
  /** Metres between the last position before and the first after. */
  distance_m: number;
}

export interface Loitering {
  start: string;
  end: string;
  duration_minutes: number;
  center: { lat: number; lon: number };
  radius_m: number;
  mean_sog_knots: number | null;
  from: { lat: number; lon: number };
  to: { lat: number; lon: number };
  /** The report from which it had lasted long enough to count (its event announces it). */
  detected_at: string;
  detected_event_id: string;
}

export interface SpeedAnomaly {
  at: string;
  kind: 'reported_speed' | 'position_jump';
  knots: number;
  limit_knots: number;
  position: { lat: number; lon: number };
}

export interface ZoneEntry {
  zone_id: string;
  at: string;
  position: { lat: number; lon: number };
}

export interface Behaviour {
  gaps: Gap[];
  loitering: Loitering[];
  speed_anomalies: SpeedAnomaly[];
  zone_entries: ZoneEntry[];
}

const minutesBetween = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 60_000;
const where = (p: { lat: number; lon: number }) => ({ lat: p.lat, lon: p.lon });

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * The behaviour of a track (positions oldest first). `typicalMaxKnots` is the service speed of the
 * vessel's type: a reported speed above it is an anomaly.
 */
export function analyseTrack(track: readonly StoredPosition[], typicalMaxKnots: number): Behaviour {
  const gaps: Gap[] = [];
  const loitering: Loitering[] = [];
  const speed: SpeedAnomaly[] = [];
  const entries: ZoneEntry[] = [];
  let run: StoredPosition[] = [];
  const closeRun = () => {
    if (run.length >= 2) {
      const first = run[0]!;
      const last = run[run.length - 1]!;
      const duration = minutesBetween(first.occurred_at, last.occurred_at);
      if (duration >= BEHAVIOUR.loiterMinutes) {
        const center = {
          lat: run.reduce((s, p) => s + p.lat, 0) / run.length,
          lon: run.reduce((s, p) => s + p.lon, 0) / run.length,
        };
        const speeds = run.map((p) => p.sog_knots).filter((s): s is number => s !== null);
        const detected = run.find((p) => minutesBetween(first.occurred_at, p.occurred_at) >= BEHAVIOUR.loiterMinutes)!;
        loitering.push({
          start: first.occurred_at,
          end: last.occurred_at,
          duration_minutes: round(duration),
          center: { lat: round(center.lat, 6), lon: round(center.lon, 6) },
          radius_m: Math.round(Math.max(...run.map((p) => metresBetween(center, p)))),
          mean_sog_knots: speeds.length ? round(speeds.reduce((s, v) => s + v, 0) / speeds.length, 2) : null,
          from: where(first),
          to: where(last),
          detected_at: detected.occurred_at,
          detected_event_id: detected.event_id,
        });
      }
    }
    run = [];
  };
  track.forEach((p, i) => {
    const prev = i > 0 ? track[i - 1]! : null;
    if (prev) {
      const minutes = minutesBetween(prev.occurred_at, p.occurred_at);
      const metres = metresBetween(prev, p);
      if (minutes > BEHAVIOUR.gapMinutes) {
        gaps.push({
          start: prev.occurred_at,
          end: p.occurred_at,
          duration_minutes: round(minutes),
          from: where(prev),
          to: where(p),
          distance_m: Math.round(metres),
        });
        closeRun();
      }
      if (minutes > 0) {
        const knots = metres / 1852 / (minutes / 60);
        // Fixes seconds apart carry their own error: a jump is judged over a minute or more.
        if (knots > BEHAVIOUR.jumpKnots && minutes >= 1)
          speed.push({
            at: p.occurred_at,
            kind: 'position_jump',
            knots: round(knots),
            limit_knots: BEHAVIOUR.jumpKnots,
            position: where(p),
          });
      }
      for (const zone of p.zone_ids)
        if (!prev.zone_ids.includes(zone)) entries.push({ zone_id: zone, at: p.occurred_at, position: where(p) });
    } else {
      for (const zone of p.zone_ids) entries.push({ zone_id: zone, at: p.occurred_at, position: where(p) });
    }
    if (p.sog_knots !== null && p.sog_knots > typicalMaxKnots) {
      speed.push({
        at: p.occurred_at,
        kind: 'reported_speed',
        knots: p.sog_knots,
        limit_knots: typicalMaxKnots,
        position: where(p),
      });
    }
    const slow =
      p.sog_knots === null
        ? prev !== null && metresBetween(prev, p) < BEHAVIOUR.loiterRadiusM / 10
        : p.sog_knots <= BEHAVIOUR.loiterMaxKnots;
    if (!slow) return closeRun();
    if (run.length > 0 && metresBetween(run[0]!, p) > BEHAVIOUR.loiterRadiusM) closeRun();
    run.push(p);
  });
  closeRun();
  return { gaps, loitering, speed_anomalies: speed, zone_entries: entries };
}
