/** Behaviour found in a vessel's track: gaps, loitering, speed anomalies, zone entries, at their thresholds. */
import { describe, expect, it } from 'vitest';
import type { StoredPosition } from '../../shared/db/vessels/store.js';
import { analyseTrack, BEHAVIOUR } from '../../shared/domain/vessels/track-analysis.js';

const T0 = Date.parse('2026-11-25T00:00:00.000Z');
let n = 0;
function at(minute: number, lat: number, lon: number, sog: number | null, zones: string[] = []): StoredPosition {
  return {
    mmsi: '235000001',
    event_id: `e${n++}`,
    occurred_at: new Date(T0 + minute * 60_000).toISOString(),
    lat,
    lon,
    sog_knots: sog,
    cog_degrees: null,
    heading_degrees: null,
    nav_status: null,
    message_type: 1,
    environment_id: null,
    zone_ids: zones,
  };
}

describe('track analysis', () => {
  it('finds a gap longer than the threshold, and not one of exactly the threshold', () => {
    const b = analyseTrack([at(0, 51, 1, 10), at(30, 51.05, 1, 10), at(71, 51.1, 1, 10)], 26);
    expect(b.gaps).toHaveLength(1);
    expect(b.gaps[0]).toMatchObject({
      start: new Date(T0 + 30 * 60_000).toISOString(),
      duration_minutes: 41,
      from: { lat: 51.05, lon: 1 },
      to: { lat: 51.1, lon: 1 },
    });
    expect(b.gaps[0]!.distance_m).toBeGreaterThan(5500);
  });

  it('finds loitering of at least 30 minutes within 1 km at 2 knots or less', () => {
    const slow = (m: number, dLat = 0) => at(m, 51.15 + dLat, 1.6, 0.5);
    const longEnough = analyseTrack(
      [
        at(0, 51.1, 1.6, 8),
        ...[3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33].map((m) => slow(m, (m % 2) * 0.001)),
        at(36, 51.2, 1.6, 9),
      ],
      26,
    );
    expect(longEnough.loitering).toHaveLength(1);
    expect(longEnough.loitering[0]).toMatchObject({ duration_minutes: 30, mean_sog_knots: 0.5 });
    expect(longEnough.loitering[0]!.detected_at).toBe(new Date(T0 + 33 * 60_000).toISOString());
    // 27 minutes is not long enough.
    expect(
      analyseTrack(
        [3, 6, 9, 12, 15, 18, 21, 24, 27, 30].map((m) => slow(m)),
        26,
      ).loitering,
    ).toEqual([]);
    // Slow but drifting away: the run breaks when it leaves the 1 km circle.
    const drifting = analyseTrack(
      [0, 5, 10, 15, 20, 25, 30, 35].map((m) => at(m, 51 + m * 0.0006, 1, 1.5)),
      26,
    );
    expect(drifting.loitering).toEqual([]);
    // A gap inside splits it.
    expect(analyseTrack([slow(0), slow(10), slow(20), slow(60), slow(70)], 26).loitering).toEqual([]);
  });

  it('flags speeds above the type and jumps no ship makes', () => {
    const b = analyseTrack([at(0, 51, 1, 12), at(1, 51.0001, 1, 31), at(2, 51.5, 1, 12)], 26);
    expect(b.speed_anomalies.map((s) => s.kind)).toEqual(['reported_speed', 'position_jump']);
    expect(b.speed_anomalies[0]).toMatchObject({ knots: 31, limit_knots: 26 });
    expect(b.speed_anomalies[1]!.knots).toBeGreaterThan(BEHAVIOUR.jumpKnots);
  });

  it('lists zone entries once per entry', () => {
    const b = analyseTrack(
      [
        at(0, 51, 1, 5),
        at(1, 51, 1, 5, ['z1']),
        at(2, 51, 1, 5, ['z1']),
        at(3, 51, 1, 5),
        at(4, 51, 1, 5, ['z1', 'z2']),
      ],
      26,
    );
    expect(b.zone_entries.map((e) => `${e.zone_id}@${(Date.parse(e.at) - T0) / 60_000}`)).toEqual([
      'z1@1',
      'z1@4',
      'z2@4',
    ]);
  });
});
