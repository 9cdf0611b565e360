/**
 * GeoJSON input (RFC 7946): a FeatureCollection, a single Feature or a bare Geometry, checked
 * for shape (positions are arrays of numbers nested as deep as the type says) and turned into
 * a list of features.
 */
import type { Feature, GeoJsonObject, Geometry } from 'geojson';
import { GeoFileError } from './geo-file-error.js';

/** How deep the positions of each geometry type are nested. */
const POSITION_DEPTH: Readonly<Record<string, number>> = {
  Point: 0,
  MultiPoint: 1,
  LineString: 1,
  MultiLineString: 2,
  Polygon: 2,
  MultiPolygon: 3,
};

const GEOMETRY_TYPES = new Set([...Object.keys(POSITION_DEPTH), 'GeometryCollection']);

/** Whether a parsed JSON value is GeoJSON at its top level (the detail is checked later). */
export function isGeoJson(value: unknown): value is GeoJsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const type = (value as { type?: unknown }).type;
  return type === 'FeatureCollection' || type === 'Feature' || (typeof type === 'string' && GEOMETRY_TYPES.has(type));
}

function isPosition(value: unknown): boolean {
  return Array.isArray(value) && value.length >= 2 && value.every((n) => typeof n === 'number' && Number.isFinite(n));
}

function positionsAt(value: unknown, depth: number): boolean {
  if (depth === 0) return isPosition(value);
  return Array.isArray(value) && value.every((v) => positionsAt(v, depth - 1));
}

/** Null when the geometry is well formed, else what is wrong with it. */
function geometryProblem(geometry: unknown, depth = 0): string | null {
  if (geometry === null || typeof geometry !== 'object') return 'is not an object';
  const { type, coordinates, geometries } = geometry as { type?: unknown; coordinates?: unknown; geometries?: unknown };
  if (typeof type !== 'string' || !GEOMETRY_TYPES.has(type)) return `has an unknown type ${JSON.stringify(type)}`;
  if (type === 'GeometryCollection') {
    if (!Array.isArray(geometries)) return 'is a GeometryCollection without a "geometries" array';
    // Nested collections are discouraged by RFC 7946; a bound keeps the walk finite.
    if (depth > 8) return 'nests GeometryCollections too deep';
    for (const [i, g] of geometries.entries()) {
      const problem = geometryProblem(g, depth + 1);
      if (problem) return `member ${i} ${problem}`;
    }
    return null;
  }
  if (!positionsAt(coordinates, POSITION_DEPTH[type] ?? 0))
    return `is a ${type} whose coordinates are not positions [longitude, latitude]`;
  return null;
}

/** The features of a GeoJSON object; a Geometry becomes one feature without properties. */
export function geojsonFeatures(value: GeoJsonObject): Feature<Geometry | null>[] {
  const features: unknown[] =
    value.type === 'FeatureCollection'
      ? ((value as { features?: unknown }).features as unknown[])
      : value.type === 'Feature'
        ? [value]
        : [{ type: 'Feature', properties: {}, geometry: value }];
  if (!Array.isArray(features)) throw new GeoFileError('unreadable_file', NO_FEATURES_ARRAY);
  return features.map((raw, i) =>
    geojsonFeature(raw, value.type === 'FeatureCollection' ? `GeoJSON feature ${i}` : 'the GeoJSON feature'),
  );
}

export const NO_FEATURES_ARRAY = 'The GeoJSON FeatureCollection has no "features" array';

/**
 * One feature, checked (`where` names it in the message: `GeoJSON feature 12`), with its geometry
 * null when absent and its properties an object.
 */
export function geojsonFeature(raw: unknown, where: string): Feature<Geometry | null> {
  if (raw === null || typeof raw !== 'object' || (raw as { type?: unknown }).type !== 'Feature') {
    throw new GeoFileError('unreadable_file', `${where.replace(/^the /, 'The ')} is not a Feature`);
  }
  const feature = raw as Feature<Geometry | null> & { properties?: unknown };
  if (feature.geometry !== null && feature.geometry !== undefined) {
    const problem = geometryProblem(feature.geometry);
    if (problem) throw new GeoFileError('unreadable_file', `The geometry of ${where} ${problem}`);
  }
  const properties = feature.properties && typeof feature.properties === 'object' ? feature.properties : {};
  return { ...feature, geometry: feature.geometry ?? null, properties };
}
