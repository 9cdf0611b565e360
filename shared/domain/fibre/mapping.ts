/**
 * Pure parts of fibre-sensor telemetry (docs/fibre-telemetry.md): where a channel lies along its
 * line, the point at a distance along a polyline, and the detection rule.
 */
import { metresBetween } from '../../geo/distance.js';
import type { FibreConfig } from '../../db/site-entities.js';
import type { DetectionPlan, OpenDisturbance } from '../../db/telemetry.js';

export interface Frame {
  /** Epoch milliseconds. */
  t: number;
  /** The channel of `v[0]`. */
  c0: number;
  v: number[];
}

/**
 * A channel's distance along the line, in metres: `start_distance_m + channel × channel_spacing_m`,
 * or, with calibration points, linear between the two points around the channel (beyond the
 * first or last point, the first or last pair's line extended).
 */
export function channelDistance(config: FibreConfig, channel: number): number {
  const points = config.calibration;
  if (!points || points.length < 2) return (config.start_distance_m ?? 0) + channel * (config.channel_spacing_m ?? 0);
  let i = 0;
  while (i < points.length - 2 && channel > points[i + 1]!.channel) i++;
  const a = points[i]!;
  const b = points[i + 1]!;
  return a.distance_m + ((channel - a.channel) * (b.distance_m - a.distance_m)) / (b.channel - a.channel);
}

/** A polyline's length in metres (geodesic segment by segment). Coordinates are [lon, lat]. */
export function lineLength(coordinates: readonly (readonly number[])[]): number {
  let total = 0;
  for (let i = 1; i < coordinates.length; i++) total += segmentLength(coordinates[i - 1]!, coordinates[i]!);
  return total;
}

const segmentLength = (a: readonly number[], b: readonly number[]) =>
  metresBetween({ lat: a[1]!, lon: a[0]! }, { lat: b[1]!, lon: b[0]! });

/**
 * The point `distanceM` metres along the polyline from its first vertex: the segment holding it is
 * found by geodesic lengths, and the point placed at the same fraction of that segment
 * (linearly in degrees; segments of infrastructure files are short). Null off either end.
 */
export function pointAlong(
  coordinates: readonly (readonly number[])[],
  distanceM: number,
): { lat: number; lon: number } | null {
  if (distanceM < 0 || coordinates.length < 2) return null;
  let walked = 0;
  for (let i = 1; i < coordinates.length; i++) {
    const a = coordinates[i - 1]!;
    const b = coordinates[i]!;
    const length = segmentLength(a, b);
    if (walked + length >= distanceM) {
      const f = length === 0 ? 0 : (distanceM - walked) / length;
      return { lat: round(a[1]! + f * (b[1]! - a[1]!)), lon: round(a[0]! + f * (b[0]! - a[0]!)) };
    }
    walked += length;
  }
  return null;
}

const round = (n: number) => Math.round(n * 1e7) / 1e7;

export interface Detection {
  first_at: number;
  last_at: number;
  channel_from: number;
  channel_to: number;
  /** The channel of the highest value, and that value. */
  channel: number;
  peak: number;
  frames: number;
}

/** Frames of one detection further apart than this are two detections. */
export const MERGE_WINDOW_MS = 5_000;
/** Most detections a batch turns into events; the strongest are kept, the others counted. */
export const MAX_DETECTIONS = 20;

/**
 * The detections of frames (in time order): in each frame, every run of adjacent channels whose
 * values are above `threshold`; a run joins an open detection when their channel ranges overlap
 * or touch and it comes at most MERGE_WINDOW_MS after that detection's last frame, else it opens
 * one. At most MAX_DETECTIONS, the highest peaks, in time order; `dropped` counts the rest.
 */
export function detect(frames: readonly Frame[], threshold: number): { detections: Detection[]; dropped: number } {
  const all: Detection[] = [];
  let open: Detection[] = [];
  for (const frame of frames) {
    open = open.filter((d) => frame.t - d.last_at <= MERGE_WINDOW_MS);
    for (const run of runsOver(frame, threshold)) {
      const joined = open.find((d) => run.channel_from <= d.channel_to + 1 && run.channel_to >= d.channel_from - 1);
      if (!joined) {
        const d = { first_at: frame.t, last_at: frame.t, ...run, frames: 1 };
        all.push(d);
        open.push(d);
        continue;
      }
      joined.channel_from = Math.min(joined.channel_from, run.channel_from);
      joined.channel_to = Math.max(joined.channel_to, run.channel_to);
      if (joined.last_at !== frame.t) joined.frames++;
      joined.last_at = frame.t;
      if (run.peak > joined.peak) {
        joined.peak = run.peak;
        joined.channel = run.channel;
      }
    }
  }
  const kept = [...all].sort((a, b) => b.peak - a.peak).slice(0, MAX_DETECTIONS);
  return {
    detections: kept.sort((a, b) => a.first_at - b.first_at || a.channel_from - b.channel_from),
    dropped: all.length - kept.length,
  };
}

function runsOver(frame: Frame, threshold: number): Omit<Detection, 'first_at' | 'last_at' | 'frames'>[] {
  const runs: Omit<Detection, 'first_at' | 'last_at' | 'frames'>[] = [];
  let current: (typeof runs)[number] | null = null;
  frame.v.forEach((value, i) => {
    const channel = frame.c0 + i;
    if (!(value > threshold)) {
      current = null;
      return;
    }
    if (!current) {
      current = { channel_from: channel, channel_to: channel, channel, peak: value };
      runs.push(current);
      return;
    }
    current.channel_to = channel;
    if (value > current.peak) {
      current.peak = value;
      current.channel = channel;
    }
  });
  return runs;
}

/** A disturbance still going this long after its first frame raises a new event, so a long one is not silent. */
export const MAX_DISTURBANCE_MS = 10 * 60_000;
/** The open disturbances kept for a sensor (the latest). */
export const MAX_OPEN_DISTURBANCES = 100;

/** Whether a detection continues a disturbance: channels that overlap or touch, times at most MERGE_WINDOW_MS apart, within MAX_DISTURBANCE_MS of its first frame. */
function continues(d: Detection, o: OpenDisturbance): boolean {
  return (
    d.channel_from <= o.channel_to + 1 &&
    d.channel_to >= o.channel_from - 1 &&
    d.first_at <= o.last_at + MERGE_WINDOW_MS &&
    d.last_at >= o.first_at - MERGE_WINDOW_MS &&
    d.last_at - o.first_at <= MAX_DISTURBANCE_MS
  );
}

/**
 * The indexes of a batch's detections that raise an event (`fresh`), and the event each other
 * one continues (`continued`, index to event id). Batches may come in any order; a detection
 * that could continue two disturbances continues the older.
 */
export function splitDetections(open: readonly OpenDisturbance[], detections: readonly Detection[]): DetectionPlan {
  const fresh: number[] = [];
  const continued: Record<number, string> = {};
  const byAge = [...open].sort((a, b) => a.first_at - b.first_at);
  detections.forEach((detection, index) => {
    const into = byAge.find((o) => continues(detection, o));
    if (into) continued[index] = into.event_id;
    else fresh.push(index);
  });
  return { fresh, continued };
}

/**
 * The open disturbances after a batch: `touched` (the ones it raised or continued, with its
 * detections' extent) merged into `open` by event id (the extent widened, never narrowed: merging
 * the same batch twice changes nothing), then those that no frame can continue any more (over
 * MAX_DISTURBANCE_MS and a merge window older than the newest frame seen), and those past
 * MAX_OPEN_DISTURBANCES, dropped.
 */
export function mergeDisturbances(
  open: readonly OpenDisturbance[],
  touched: readonly OpenDisturbance[],
): OpenDisturbance[] {
  const byId = new Map(open.map((o) => [o.event_id, { ...o }]));
  for (const t of touched) {
    const o = byId.get(t.event_id);
    if (!o) {
      byId.set(t.event_id, { ...t });
      continue;
    }
    o.first_at = Math.min(o.first_at, t.first_at);
    o.last_at = Math.max(o.last_at, t.last_at);
    o.channel_from = Math.min(o.channel_from, t.channel_from);
    o.channel_to = Math.max(o.channel_to, t.channel_to);
  }
  const all = [...byId.values()];
  const newest = Math.max(...all.map((o) => o.last_at));
  return all
    .filter((o) => o.last_at >= newest - MERGE_WINDOW_MS - MAX_DISTURBANCE_MS)
    .sort((a, b) => b.last_at - a.last_at || a.event_id.localeCompare(b.event_id))
    .slice(0, MAX_OPEN_DISTURBANCES);
}
