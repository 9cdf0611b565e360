/**
 * The line geometries of one infrastructure file (cables, pipelines, power lines), segment by
 * segment, as stored next to its features when the file is stored (and, for a file stored before
 * lines were kept, built when it is first read); immutable like the file. A reader packs the
 * segments into an R-tree (shared/domain/infrastructure/line-search.ts): building it takes
 * milliseconds, and the upload carries no index code.
 */
import type { FeatureCollection, Geometry, Position } from 'geojson';

/** Whether a file of these geometry types has lines to index. */
export const hasLines = (geometryTypes: readonly string[]) =>
  geometryTypes.some((t) => t === 'LineString' || t === 'MultiLineString' || t === 'GeometryCollection');

export interface IndexedLine {
  /** `<feature index>` or, for a part of a MultiLineString, `<feature index>.<part>`. */
  line_id: string;
  name: string | null;
  coordinates: Position[];
}

export interface LineIndexData {
  version: 1;
  lines: IndexedLine[];
  /** For each segment: its line's index in `lines` and its first vertex's index. */
  segments: [number, number][];
}

const NAME_KEYS = ['name', 'Name', 'NAME', 'title', 'cable_name', 'id'];

function nameOf(properties: Record<string, unknown> | null): string | null {
  for (const k of NAME_KEYS) {
    const v = properties?.[k];
    if (typeof v === 'string' && v.trim()) return v.trim().slice(0, 200);
    if (typeof v === 'number') return String(v);
  }
  return null;
}

/** The lines of a file's features and the index over their segments. */
export function buildLineIndex(features: FeatureCollection): LineIndexData {
  const lines: IndexedLine[] = [];
  const add = (featureIndex: number, part: number | null, coordinates: Position[], name: string | null) => {
    if (coordinates.length >= 2)
      lines.push({
        line_id: part === null ? String(featureIndex) : `${featureIndex}.${part}`,
        name,
        coordinates: coordinates.map((c) => [c[0]!, c[1]!]),
      });
  };
  features.features.forEach((f, i) => {
    const name = nameOf(f.properties);
    const walk = (g: Geometry, part: number | null) => {
      if (g.type === 'LineString') add(i, part, g.coordinates, name);
      else if (g.type === 'MultiLineString') g.coordinates.forEach((c, p) => add(i, p, c, name));
      else if (g.type === 'GeometryCollection') g.geometries.forEach((sub, p) => walk(sub, p));
    };
    walk(f.geometry, null);
  });
  const segments: [number, number][] = [];
  lines.forEach((l, li) => l.coordinates.slice(1).forEach((_, vi) => segments.push([li, vi])));
  return { version: 1, lines, segments };
}
