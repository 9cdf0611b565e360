import { describe, expect, it } from 'vitest';
import { assertValidGeofence, geofenceContains, type Geofence } from '../../shared/domain/geo/geofence.js';
import { healthOf } from '../../shared/domain/sites/sensors.js';
import { RequestValidationError } from '../../shared/http/errors.js';

const ring = (pts: number[][]) => [...pts, pts[0]!];
const withHole: Geofence = {
  type: 'Polygon',
  coordinates: [
    ring([
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
    ]),
    ring([
      [4, 4],
      [6, 4],
      [6, 6],
      [4, 6],
    ]),
  ],
};

function issueOf(geofence: Geofence) {
  try {
    assertValidGeofence(geofence, ['body', 'geofence']);
    return null;
  } catch (err) {
    return (err as RequestValidationError).issues[0];
  }
}

describe('geofence checks', () => {
  it('accept a polygon with a hole', () => {
    expect(issueOf(withHole)).toBeNull();
  });

  it('locate a self-intersection at its polygon', () => {
    const bowtie: Geofence = {
      type: 'MultiPolygon',
      coordinates: [
        [
          ring([
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
          ]),
        ],
        [
          ring([
            [5, 5],
            [6, 6],
            [6, 5],
            [5, 6],
          ]),
        ],
      ],
    };
    expect(issueOf(bowtie)).toMatchObject({ loc: ['body', 'geofence', 'coordinates', 1], type: 'self_intersection' });
  });

  it('refuse a hole crossing its exterior', () => {
    const crossing: Geofence = {
      type: 'Polygon',
      coordinates: [
        ring([
          [0, 0],
          [10, 0],
          [10, 10],
          [0, 10],
        ]),
        ring([
          [8, 8],
          [12, 8],
          [12, 12],
          [8, 12],
        ]),
      ],
    };
    expect(issueOf(crossing)?.type).toMatch(/self_intersection|hole_outside/);
  });

  it('refuse a ring with fewer than three distinct corners', () => {
    expect(
      issueOf({
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 1],
            [0, 0],
            [0, 0],
          ],
        ],
      })?.type,
    ).toBe('degenerate_ring');
  });
});

describe('point in geofence', () => {
  it('is inside the polygon but not inside its hole', () => {
    expect(geofenceContains(withHole, { lon: 2, lat: 2 })).toBe(true);
    expect(geofenceContains(withHole, { lon: 5, lat: 5 })).toBe(false);
    expect(geofenceContains(withHole, { lon: 11, lat: 5 })).toBe(false);
  });

  it('measures circles in metres', () => {
    const circle: Geofence = { type: 'Circle', center: [10.75, 59.91], radius_m: 100 };
    // 0.001 degrees of latitude is about 111 m.
    expect(geofenceContains(circle, { lon: 10.75, lat: 59.9108 })).toBe(true);
    expect(geofenceContains(circle, { lon: 10.75, lat: 59.911 })).toBe(false);
  });
});

describe('sensor health', () => {
  const now = Date.parse('2026-01-01T12:00:00.000Z');
  const ago = (s: number) => new Date(now - s * 1000).toISOString();
  it('online within half the timeout, degraded within it, offline beyond or never seen', () => {
    expect(healthOf(ago(150), 300, now)).toBe('online');
    expect(healthOf(ago(151), 300, now)).toBe('degraded');
    expect(healthOf(ago(300), 300, now)).toBe('degraded');
    expect(healthOf(ago(301), 300, now)).toBe('offline');
    expect(healthOf(null, 300, now)).toBe('offline');
  });
});
