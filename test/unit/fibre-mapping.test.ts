/** The pure parts of fibre telemetry: channels to distances, a distance to a point on a line, and the detection rule. */
import turfDistance from '@turf/distance';
import { describe, expect, it } from 'vitest';
import { channelDistance, detect, lineLength, MAX_DETECTIONS, pointAlong, type Frame } from '../../shared/domain/fibre/mapping.js';
import { decodeFrames, encodeFrames, telemetryObjectKey } from '../../shared/domain/fibre/telemetry.js';

const LINE = [
  [1.4, 51.1],
  [1.6, 51.15],
  [1.8, 51.2],
];

describe('channelDistance', () => {
  it('is start plus channel times spacing', () => {
    expect(channelDistance({ line_id: 'x', threshold: 1, start_distance_m: 250, channel_spacing_m: 2.5 }, 100)).toBe(500);
  });
  it('interpolates between calibration points and extends the end pairs beyond them', () => {
    const config = { line_id: 'x', threshold: 1, calibration: [{ channel: 10, distance_m: 100 }, { channel: 20, distance_m: 300 }, { channel: 40, distance_m: 400 }] };
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
    expect(detections).toEqual([{ first_at: 0, last_at: 1000, channel_from: 1, channel_to: 4, channel: 3, peak: 12, frames: 2 }]);
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

describe('the stored object', () => {
  it('gives back the frames it was made of, exactly', () => {
    const frames = [frame(1, [0.1, -2.5e-7, 3]), frame(2, [1e300, 0], 7)];
    expect(decodeFrames(encodeFrames({ kind: 'das' }, frames))).toEqual(frames);
  });
  it('is keyed by tenant, sensor, day, hour and first frame', () => {
    const at = Date.parse('2026-11-25T08:05:00.000Z');
    expect(telemetryObjectKey('t1', 's1', at, 'b-1', 'abcdef0123456789')).toBe(`telemetry/t1/s1/2026-11-25/08/${at}-b-1-abcdef012345.jsonl.gz`);
  });
});
