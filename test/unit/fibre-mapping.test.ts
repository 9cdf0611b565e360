/** The pure parts of fibre telemetry: channels to distances, a distance to a point on a line, the detection rule, and detections continued across batches. */
import turfDistance from '@turf/distance';
import { describe, expect, it } from 'vitest';
import type { OpenDisturbance } from '../../shared/db/telemetry.js';
import {
  channelDistance,
  detect,
  lineLength,
  MAX_DETECTIONS,
  MAX_DISTURBANCE_MS,
  MAX_OPEN_DISTURBANCES,
  mergeDisturbances,
  pointAlong,
  splitDetections,
  type Detection,
  type Frame,
} from '../../shared/domain/fibre/mapping.js';
import { decodeFrames, encodeFrames, telemetryObjectKey } from '../../shared/domain/fibre/telemetry.js';

const LINE = [
  [1.4, 51.1],
  [1.6, 51.15],
  [1.8, 51.2],
];

describe('channelDistance', () => {
  it('is start plus channel times spacing', () => {
    expect(channelDistance({ line_id: 'x', threshold: 1, start_distance_m: 250, channel_spacing_m: 2.5 }, 100)).toBe(
      500,
    );
  });
  it('interpolates between calibration points and extends the end pairs beyond them', () => {
    const config = {
      line_id: 'x',
      threshold: 1,
      calibration: [
        { channel: 10, distance_m: 100 },
        { channel: 20, distance_m: 300 },
        { channel: 40, distance_m: 400 },
      ],
    };
    expect(channelDistance(config, 15)).toBe(200);
    expect(channelDistance(config, 30)).toBe(350);
    expect(channelDistance(config, 0)).toBe(-100);
    expect(channelDistance(config, 60)).toBe(500);
  });
});

describe('pointAlong', () => {
  it('finds the point at a distance along the polyline, on the right segment', () => {
    const first = turfDistance(LINE[0]!, LINE[1]!, { units: 'meters' });
    const p = pointAlong(LINE, first + 5000)!;
    const fromVertex = turfDistance(LINE[1]!, [p.lon, p.lat], { units: 'meters' });
    expect(Math.abs(fromVertex - 5000)).toBeLessThan(5);
    expect(p.lon).toBeGreaterThan(1.6);
    expect(pointAlong(LINE, 0)).toEqual({ lat: 51.1, lon: 1.4 });
  });
  it('is null off either end', () => {
    expect(pointAlong(LINE, -1)).toBeNull();
    expect(pointAlong(LINE, lineLength(LINE) + 1)).toBeNull();
  });
});

const frame = (t: number, values: number[], c0 = 0): Frame => ({ t, c0, v: values });

describe('detect', () => {
  it('finds a run of adjacent channels over the threshold, its peak, and merges it across close frames', () => {
    const { detections, dropped } = detect(
      [frame(0, [1, 6, 9, 7, 1, 1]), frame(1000, [1, 1, 8, 12, 6, 1]), frame(2000, [1, 1, 1, 1, 1, 1])],
      5,
    );
    expect(dropped).toBe(0);
    expect(detections).toEqual([
      { first_at: 0, last_at: 1000, channel_from: 1, channel_to: 4, channel: 3, peak: 12, frames: 2 },
    ]);
  });
  it('keeps apart runs separated by a quiet channel, and frames further apart than the merge window', () => {
    const { detections } = detect([frame(0, [9, 1, 9]), frame(6000, [9, 1, 1])], 5);
    expect(detections.map((d) => [d.first_at, d.channel_from, d.channel_to])).toEqual([
      [0, 0, 0],
      [0, 2, 2],
      [6000, 0, 0],
    ]);
  });
  it('takes a value equal to the threshold as quiet, and keeps the strongest detections only', () => {
    expect(detect([frame(0, [5, 5])], 5).detections).toEqual([]);
    const many = Array.from({ length: MAX_DETECTIONS + 5 }, (_, i) => frame(i * 10_000, [10 + i]));
    const { detections, dropped } = detect(many, 5);
    expect(dropped).toBe(5);
    expect(detections).toHaveLength(MAX_DETECTIONS);
    expect(Math.min(...detections.map((d) => d.peak))).toBe(15);
  });
});

const detection = (first_at: number, last_at: number, channel_from: number, channel_to: number): Detection => ({
  first_at,
  last_at,
  channel_from,
  channel_to,
  channel: channel_from,
  peak: 9,
  frames: 1 + (last_at - first_at) / 1000,
});
const disturbance = (
  event_id: string,
  first_at: number,
  last_at: number,
  channel_from: number,
  channel_to: number,
): OpenDisturbance => ({ event_id, first_at, last_at, channel_from, channel_to });

describe('splitDetections', () => {
  const open = [disturbance('e-120', 0, 9000, 120, 122)];
  it('continues a disturbance on the same or touching channels within the merge window, before or after it', () => {
    const plan = splitDetections(open, [
      detection(10_000, 14_000, 121, 121), // the next batch, a second later
      detection(14_000, 15_000, 123, 124), // touching channels
      detection(-4000, -3000, 118, 119), // an earlier batch that came late
    ]);
    expect(plan).toEqual({ fresh: [], continued: { 0: 'e-120', 1: 'e-120', 2: 'e-120' } });
  });
  it('raises events for other channels, after a quiet gap over the merge window, and once a disturbance has gone on for ten minutes', () => {
    const plan = splitDetections(open, [
      detection(10_000, 11_000, 125, 126), // a channel apart
      detection(15_000, 16_000, 120, 122), // 6 s after its last frame
      detection(MAX_DISTURBANCE_MS - 1000, MAX_DISTURBANCE_MS + 1000, 120, 122),
    ]);
    expect(plan).toEqual({ fresh: [0, 1, 2], continued: {} });
    expect(splitDetections([], [detection(0, 0, 1, 1)])).toEqual({ fresh: [0], continued: {} });
  });
  it('continues the older of two disturbances a detection could continue', () => {
    const two = [disturbance('newer', 5000, 9000, 120, 122), disturbance('older', 1000, 9000, 110, 121)];
    expect(splitDetections(two, [detection(10_000, 10_000, 121, 121)]).continued).toEqual({ 0: 'older' });
  });
});

describe('mergeDisturbances', () => {
  it('widens a continued disturbance, adds a new one, and changes nothing when the same batch is merged twice', () => {
    const open = [disturbance('e-1', 0, 9000, 120, 122)];
    const touched = [disturbance('e-1', 10_000, 14_000, 119, 121), disturbance('e-2', 12_000, 12_000, 40, 41)];
    const once = mergeDisturbances(open, touched);
    expect(once).toEqual([disturbance('e-1', 0, 14_000, 119, 122), disturbance('e-2', 12_000, 12_000, 40, 41)]);
    expect(mergeDisturbances(once, touched)).toEqual(once);
    // A late, earlier batch never narrows what is known.
    expect(mergeDisturbances(once, [disturbance('e-1', 2000, 3000, 121, 121)])).toEqual(once);
  });
  it('drops what no later frame can continue, and keeps the latest ones only', () => {
    const old = disturbance('old', 0, 1000, 1, 1);
    const recent = disturbance('recent', MAX_DISTURBANCE_MS, MAX_DISTURBANCE_MS + 7000, 5, 5);
    expect(mergeDisturbances([old], [recent]).map((o) => o.event_id)).toEqual(['recent']);
    const many = Array.from({ length: MAX_OPEN_DISTURBANCES + 3 }, (_, i) => disturbance(`e-${i}`, i, i, i * 3, i * 3));
    const kept = mergeDisturbances([], many);
    expect(kept).toHaveLength(MAX_OPEN_DISTURBANCES);
    expect(kept.map((o) => o.event_id)).not.toContain('e-0');
  });
});

describe('the stored object', () => {
  it('gives back the frames it was made of, exactly', () => {
    const frames = [frame(1, [0.1, -2.5e-7, 3]), frame(2, [1e300, 0], 7)];
    expect(decodeFrames(encodeFrames({ kind: 'das' }, frames))).toEqual(frames);
  });
  it('is keyed by tenant, sensor, day, hour and first frame', () => {
    const at = Date.parse('2026-11-25T08:05:00.000Z');
    expect(telemetryObjectKey('t1', 's1', at, 'b-1', 'abcdef0123456789')).toBe(
      `telemetry/t1/s1/2026-11-25/08/${at}-b-1-abcdef012345.jsonl.gz`,
    );
  });
});
