/**
 * Geofences: validation beyond what the schema can say (closed rings, no self-intersection, holes
 * inside their polygon, a vertex limit), their area and bounding box, and whether a point is
 * inside one. The geometry work is turf's; nothing here is hand-written geometry.
 */
import turfArea from '@turf/area';
import turfBbox from '@turf/bbox';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import turfCircle from '@turf/circle';
import turfDistance from '@turf/distance';
import { point, polygon as turfPolygon } from '@turf/helpers';
import kinks from '@turf/kinks';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { invalid, type Loc } from '../../errors.js';
import { MAX_GEOFENCE_VERTICES, type Geofence, type LatLon } from '../../schemas/geo.js';

export type { Geofence, LatLon } from '../../schemas/geo.js';

const samePosition = (a: Position, b: Position) => a[0] === b[0] && a[1] === b[1];

/** Throws a 422 located under `loc` when the geofence is not a valid area. */
export function assertValidGeofence(geofence: Geofence, loc: Loc): void {
  if (geofence.type === 'Circle') return;
  const polygons = geofence.type === 'Polygon' ? [geofence.coordinates] : geofence.coordinates;
  const at = (...path: (string | number)[]): Loc => [...loc, 'coordinates', ...path] as Loc;
  let vertices = 0;
  polygons.forEach((rings, p) => {
    const where = (...path: (string | number)[]) => (geofence.type === 'Polygon' ? at(...path) : at(p, ...path));
    rings.forEach((ring, r) => {
      vertices += ring.length;
      if (!samePosition(ring[0]!, ring[ring.length - 1]!)) {
        throw invalid(where(r), 'the ring is not closed: its last position must equal its first', 'open_ring');
      }
      if (new Set(ring.slice(0, -1).map((pos) => `${pos[0]},${pos[1]}`)).size < 3) {
        throw invalid(where(r), 'the ring needs at least three distinct positions', 'degenerate_ring');
      }
    });
    const crossings = kinks(turfPolygon(rings)).features;
    if (crossings.length > 0) {
      const [lon, lat] = crossings[0]!.geometry.coordinates;
      throw invalid(where(), `the polygon intersects itself (near lon ${lon}, lat ${lat})`, 'self_intersection');
    }
    const exterior = turfPolygon([rings[0]!]);
    rings.slice(1).forEach((hole, h) => {
      if (!hole.slice(0, -1).every((pos) => booleanPointInPolygon(point(pos), exterior, { ignoreBoundary: true }))) {
        throw invalid(where(h + 1), 'a hole must lie inside its polygon', 'hole_outside');
      }
    });
  });
  if (vertices > MAX_GEOFENCE_VERTICES) {
    throw invalid(
      [...loc, 'coordinates'] as Loc,
      `at most ${MAX_GEOFENCE_VERTICES} vertices in all; this has ${vertices}`,
      'too_many_vertices',
    );
  }
}

/** The geofence as a GeoJSON polygon (a circle as a 64-sided one), for area and bbox. */
function asPolygon(geofence: Geofence): Polygon | MultiPolygon {
  if (geofence.type === 'Circle') {
    return turfCircle(geofence.center, geofence.radius_m / 1000, { steps: 64, units: 'kilometers' }).geometry;
  }
  return geofence;
}

export function geofenceArea(geofence: Geofence): number {
  if (geofence.type === 'Circle') return Math.PI * geofence.radius_m ** 2;
  return turfArea(geofence);
}

export function geofenceBbox(geofence: Geofence): [number, number, number, number] {
  return turfBbox(asPolygon(geofence)) as [number, number, number, number];
}

/** Whether the point lies in the geofence (on the boundary counts as inside). */
export function geofenceContains(geofence: Geofence, at: LatLon): boolean {
  const p = point([at.lon, at.lat]);
  if (geofence.type === 'Circle') {
    return turfDistance(point(geofence.center), p, { units: 'meters' }) <= geofence.radius_m;
  }
  return booleanPointInPolygon(p, geofence);
}
