/**
 * Distances to an area (a drawn warning polygon, docs/connectors.md "Hazard alerts"): from a point
 * (zero inside it) and from a file's lines (zero for a line crossing it or lying in it). Measured as
 * the line search measures (great circle, `@turf/nearest-point-on-line`); whether a segment crosses
 * an edge is decided in longitude and latitude, which is exact enough for areas of a few hundred
 * kilometres drawn away from the antimeridian, as NWS's are.
 */
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { lineString, point } from '@turf/helpers';
import nearestPointOnLine from '@turf/nearest-point-on-line';
import type { Polygon, Position } from 'geojson';
import type { LineHit, LineIndex } from './line-search.js';

/** Metres from a point to the area: 0 inside it, else to its nearest edge. */
export function metresFromArea(area: Polygon, at: { lat: number; lon: number }): number {
  const here = point([at.lon, at.lat]);
  if (booleanPointInPolygon(here, area)) return 0;
  return Math.min(
    ...area.coordinates.map(
      (ring) => nearestPointOnLine(lineString(ring), here, { units: 'meters' }).properties.pointDistance,
    ),
  );
}

/** The area's bounding box, widened by `metres` on every side: [west, south, east, north]. */
export function widenedBox(area: Polygon, metres: number): [number, number, number, number] {
  const ring = area.coordinates[0]!;
  const lats = ring.map((p) => p[1]!);
  const lons = ring.map((p) => p[0]!);
  const south = Math.min(...lats);
  const north = Math.max(...lats);
  const dLat = metres / 111_320;
  const dLon = Math.min(
    180,
    metres / (111_320 * Math.max(0.01, Math.cos((Math.max(Math.abs(south), Math.abs(north)) * Math.PI) / 180))),
  );
  return [Math.min(...lons) - dLon, south - dLat, Math.max(...lons) + dLon, north + dLat];
}

const cross = (o: Position, a: Position, b: Position) =>
  (a[0]! - o[0]!) * (b[1]! - o[1]!) - (a[1]! - o[1]!) * (b[0]! - o[0]!);

/** Whether segments ab and cd cross or touch (planar, in degrees). */
function segmentsMeet(a: Position, b: Position, c: Position, d: Position): boolean {
  const d1 = cross(c, d, a);
  const d2 = cross(c, d, b);
  const d3 = cross(a, b, c);
  const d4 = cross(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  const on = (p: Position, q: Position, r: Position) =>
    Math.min(p[0]!, q[0]!) <= r[0]! &&
    r[0]! <= Math.max(p[0]!, q[0]!) &&
    Math.min(p[1]!, q[1]!) <= r[1]! &&
    r[1]! <= Math.max(p[1]!, q[1]!);
  return (
    (d1 === 0 && on(c, d, a)) || (d2 === 0 && on(c, d, b)) || (d3 === 0 && on(a, b, c)) || (d4 === 0 && on(a, b, d))
  );
}

/** Where segment ab meets segment cd (they do: segmentsMeet); an end of ab when they run along each other. */
function meetingPoint(a: Position, b: Position, c: Position, d: Position): Position {
  const ab = [b[0]! - a[0]!, b[1]! - a[1]!];
  const cd = [d[0]! - c[0]!, d[1]! - c[1]!];
  const denominator = ab[0]! * cd[1]! - ab[1]! * cd[0]!;
  if (denominator === 0) return a;
  const t = ((c[0]! - a[0]!) * cd[1]! - (c[1]! - a[1]!) * cd[0]!) / denominator;
  return [a[0]! + t * ab[0]!, a[1]! + t * ab[1]!];
}

/** Metres from segment ab to the area, and the point of the segment nearest to it. */
function segmentToArea(area: Polygon, a: Position, b: Position): { distance: number; nearest: Position } {
  const edges = area.coordinates.flatMap((ring) => ring.slice(1).map((p, i) => [ring[i]!, p] as const));
  const inside = [a, b].find((p) => booleanPointInPolygon(point(p), area));
  if (inside) return { distance: 0, nearest: inside };
  const crossing = edges.find(([c, d]) => segmentsMeet(a, b, c, d));
  if (crossing) return { distance: 0, nearest: meetingPoint(a, b, crossing[0], crossing[1]) };
  // Apart, two segments are nearest at an end of one of them.
  let best = { distance: Infinity, nearest: a };
  for (const end of [a, b]) {
    const d = metresFromArea(area, { lon: end[0]!, lat: end[1]! });
    if (d < best.distance) best = { distance: d, nearest: end };
  }
  const segment = lineString([a, b]);
  for (const vertex of area.coordinates.flat()) {
    const hit = nearestPointOnLine(segment, point(vertex), { units: 'meters' });
    if (hit.properties.pointDistance < best.distance)
      best = { distance: hit.properties.pointDistance, nearest: hit.geometry.coordinates };
  }
  return best;
}

/** The file's lines that cross the area or come within `maxMetres` of it, each with its distance, nearest first. */
export function linesNearArea(index: LineIndex, area: Polygon, maxMetres: number): LineHit[] {
  if (!index.tree) return [];
  const [west, south, east, north] = widenedBox(area, maxMetres);
  const best = new Map<number, LineHit>();
  for (const s of index.tree.search(west, south, east, north)) {
    const [li, vi] = index.data.segments[s]!;
    const line = index.data.lines[li]!;
    const { distance, nearest } = segmentToArea(area, line.coordinates[vi]!, line.coordinates[vi + 1]!);
    if (distance > maxMetres) continue;
    const previous = best.get(li);
    if (!previous || distance < previous.distance_m) {
      best.set(li, {
        line,
        distance_m: Math.round(distance),
        nearest: { lat: Math.round(nearest[1]! * 1e6) / 1e6, lon: Math.round(nearest[0]! * 1e6) / 1e6 },
      });
    }
  }
  return [...best.values()].sort((a, b) => a.distance_m - b.distance_m);
}
