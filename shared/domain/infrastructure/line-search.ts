/**
 * Searching a file's lines (shared/domain/infrastructure/line-index.ts): an R-tree over their
 * segments, built when a container first reads the file, gives the candidate segments near a
 * point, and only those are measured exactly (great-circle, `@turf/nearest-point-on-line`).
 */
import Flatbush from 'flatbush';
import { lineString, point } from '@turf/helpers';
import nearestPointOnLine from '@turf/nearest-point-on-line';
import type { IndexedLine, LineIndexData } from './line-index.js';

export interface LineIndex {
  data: LineIndexData;
  tree: Flatbush | null;
}

/** The file's lines with their R-tree (`flatbush`, a packed static R-tree over the segments' boxes). */
export function openLineIndex(data: LineIndexData): LineIndex {
  if (data.segments.length === 0) return { data, tree: null };
  const tree = new Flatbush(data.segments.length);
  for (const [li, vi] of data.segments) {
    const a = data.lines[li]!.coordinates[vi]!;
    const b = data.lines[li]!.coordinates[vi + 1]!;
    tree.add(Math.min(a[0]!, b[0]!), Math.min(a[1]!, b[1]!), Math.max(a[0]!, b[0]!), Math.max(a[1]!, b[1]!));
  }
  tree.finish();
  return { data, tree };
}

export interface LineHit {
  line: IndexedLine;
  distance_m: number;
  /** The nearest point of the line. */
  nearest: { lat: number; lon: number };
}

/**
 * The lines with a segment within `maxMetres` of the point, each with its distance, nearest
 * first. The box searched is the circle's bounding box in degrees (wider in longitude away
 * from the equator); candidates are then measured exactly.
 */
export function linesNear(index: LineIndex, at: { lat: number; lon: number }, maxMetres: number): LineHit[] {
  if (!index.tree) return [];
  const dLat = maxMetres / 111_320;
  const dLon = Math.min(180, maxMetres / (111_320 * Math.max(0.01, Math.cos((at.lat * Math.PI) / 180))));
  const candidates = index.tree.search(at.lon - dLon, at.lat - dLat, at.lon + dLon, at.lat + dLat);
  const best = new Map<number, LineHit>();
  const here = point([at.lon, at.lat]);
  for (const s of candidates) {
    const [li, vi] = index.data.segments[s]!;
    const line = index.data.lines[li]!;
    const hit = nearestPointOnLine(lineString([line.coordinates[vi]!, line.coordinates[vi + 1]!]), here, {
      units: 'meters',
    });
    const distance = hit.properties.pointDistance;
    if (distance > maxMetres) continue;
    const previous = best.get(li);
    if (!previous || distance < previous.distance_m) {
      const [lon, lat] = hit.geometry.coordinates as [number, number];
      best.set(li, {
        line,
        distance_m: Math.round(distance),
        nearest: { lat: Math.round(lat * 1e6) / 1e6, lon: Math.round(lon * 1e6) / 1e6 },
      });
    }
  }
  return [...best.values()].sort((a, b) => a.distance_m - b.distance_m);
}
