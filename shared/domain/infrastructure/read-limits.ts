/**
 * What a reader of a large file (the background extraction: kml-stream.ts, geojson-stream.ts,
 * shapefile.ts) reads at most, counted while it reads, so that the memory it holds is bounded
 * whatever the file: the features it keeps, never the whole text or a tree of it.
 */
import type { Geometry } from 'geojson';
import { GeoFileError } from './geo-file-error.js';

export interface ReadLimits {
  /** Bytes of the document (or of a shapefile's .shp and .dbf, unpacked) read at most. */
  maxBytes: number;
  /** Features (placemarks, ground overlays and network links in KML; records in a shapefile) at most. */
  maxFeatures: number;
  /** Coordinate tuples at most, over every geometry. */
  maxVertices: number;
}

/** Past a limit: the file is refused, saying which. */
export class ReadLimitError extends GeoFileError {
  constructor(message: string) {
    super('too_large', message);
  }
}

/** The positions of a geometry (a GeometryCollection's members' together). */
export function positionCount(geometry: Geometry | null): number {
  if (!geometry) return 0;
  if (geometry.type === 'GeometryCollection') return geometry.geometries.reduce((n, g) => n + positionCount(g), 0);
  if (geometry.type === 'Point') return 1;
  if (geometry.type === 'MultiPoint' || geometry.type === 'LineString') return geometry.coordinates.length;
  if (geometry.type === 'MultiLineString' || geometry.type === 'Polygon')
    return geometry.coordinates.reduce((n, line) => n + line.length, 0);
  return geometry.coordinates.reduce((n, polygon) => n + polygon.reduce((m, ring) => m + ring.length, 0), 0);
}

/** Lets the event loop turn: a server running a long read answers other requests (and /health) meanwhile. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
