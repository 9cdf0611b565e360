/**
 * The types of what the GeoJSON schemas (shared/schemas/geo.ts) accept, apart from the schemas so
 * that json-schema.ts can name them without importing geo.ts, which imports it.
 */
import type { LineString, MultiLineString, MultiPoint, MultiPolygon, Point, Polygon, Position } from 'geojson';

/** A zone's geofence as the `geofence` schema accepts it. */
export type Geofence =
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] }
  | { type: 'Circle'; center: Position; radius_m: number };

/** A point with named fields, as the `latLon` schema accepts it. */
export interface LatLon {
  lat: number;
  lon: number;
}

/** An asset's geometry as the `assetGeometry` schema accepts it (its nesting checked by the domain). */
export type AssetGeometry = Point | MultiPoint | LineString | MultiLineString | Polygon | MultiPolygon;
