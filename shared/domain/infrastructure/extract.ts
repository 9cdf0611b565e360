/**
 * From a file's bytes to GeoJSON features and what the API reports about them: how many, which
 * geometry types, and the bounding box. Features without a geometry (a KML placemark holding
 * only a name, a GeoJSON feature with `"geometry": null`) are left out: they cannot be drawn.
 */
import { bbox as turfBbox } from '@turf/bbox';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import { DomainError, invalid, type Loc } from '../../errors.js';
import { MAX_STREAM_VERTICES } from '../../schemas/infrastructure.js';
import { BeyondRequestBudget, requestBudget } from './budget.js';
import { openByNameAndContent, type OpenedFile } from './detect.js';
import { FORMAT_LABEL, type InfrastructureFormat } from './formats.js';
import { GeoFileError } from './geo-file-error.js';
import { geojsonFeatures } from './geojson.js';
import { isKmlDocument, kmlFeatures, xmlParser } from './kml.js';
import { shapefileFeatures, type ShapefileLimits } from './shapefile.js';
import { decodeText } from './text.js';
import { buildLineIndex, hasLines, type LineIndexData } from './line-index.js';

export interface GeometrySummary {
  feature_count: number;
  /** Distinct top-level geometry types, sorted. */
  geometry_types: string[];
  /** [west, south, east, north]. */
  bbox: [number, number, number, number];
}

export interface Extraction {
  format: InfrastructureFormat;
  features: FeatureCollection;
  summary: GeometrySummary;
  /** Its lines and their spatial index (shared/domain/infrastructure/line-index.ts); null without lines. */
  lines: LineIndexData | null;
}

export async function extractGeometries(filename: string, data: Uint8Array): Promise<Extraction> {
  const opened = await openByNameAndContent(filename, data);
  let all: Feature<Geometry | null>[];
  try {
    all = await featuresOf(opened);
  } catch (err) {
    if (err instanceof GeoFileError || err instanceof DomainError || err instanceof BeyondRequestBudget) throw err;
    // A converter tripping over hostile or odd input: the file's fault, not ours.
    throw new GeoFileError(
      'unreadable_file',
      `The file is not readable as ${FORMAT_LABEL[opened.format]}: ${(err as Error).message}`,
    );
  }
  return extractionOf(opened.format, all);
}

/** The features that can be drawn, what the API reports about them, and their lines' index. */
export function extractionOf(format: InfrastructureFormat, all: Feature<Geometry | null>[]): Extraction {
  const features = all.filter((f): f is Feature => f.geometry !== null && hasPosition(f.geometry));
  if (features.length === 0) {
    const held =
      all.length === 0 ? 'no features' : `${all.length} feature${all.length === 1 ? '' : 's'}, none with coordinates`;
    throw new GeoFileError('no_geometries', `The file holds no geometries: ${FORMAT_LABEL[format]} with ${held}`);
  }
  const collection: FeatureCollection = { type: 'FeatureCollection', features };
  const summary = summarize(collection);
  return {
    format,
    features: collection,
    summary,
    lines: hasLines(summary.geometry_types) ? buildLineIndex(collection) : null,
  };
}

/** Extracts, turning a bad file into a 422 at `loc` (a too large one stays a 413). */
export async function extractOrRefuse(filename: string, data: Uint8Array, loc: Loc): Promise<Extraction> {
  try {
    return await extractGeometries(filename, data);
  } catch (err) {
    if (err instanceof GeoFileError) throw invalid(loc, err.message, err.problem);
    throw err;
  }
}

async function featuresOf(opened: OpenedFile): Promise<Feature<Geometry | null>[]> {
  switch (opened.format) {
    case 'kml':
      return kmlFeatures(opened.document);
    case 'kmz': {
      // Counted as it is unpacked: a text beyond the request's budget is not unpacked further.
      const what = `${opened.kml.name} in the KMZ archive`;
      const bytes = await opened.archive.read(opened.kml, {
        bytes: requestBudget('kml'),
        error: () => new BeyondRequestBudget(what, 'kml'),
      });
      const text = decodeText(bytes);
      const parseXml = await xmlParser();
      let document;
      try {
        document = parseXml(text);
      } catch (err) {
        throw new GeoFileError(
          'unreadable_file',
          `${opened.kml.name} in the KMZ archive does not parse as XML (${(err as Error).message})`,
        );
      }
      if (!isKmlDocument(document))
        throw new GeoFileError('unreadable_file', `${opened.kml.name} in the KMZ archive is not a KML document`);
      return kmlFeatures(document);
    }
    case 'geojson':
      return geojsonFeatures(opened.value);
    case 'shapefile':
      // Counted as it is unpacked and read: past the request's budget, the read stops there.
      return shapefileFeatures(opened.archive, opened.layers, SHAPEFILE_REQUEST_LIMITS);
  }
}

/** A request reads a shapefile up to its budget (budget.ts); the background's vertex limit is never reached below it. */
const SHAPEFILE_REQUEST_LIMITS: ShapefileLimits = {
  maxBytes: requestBudget('shapefile'),
  maxFeatures: requestBudget('shapefileRecords'),
  maxVertices: MAX_STREAM_VERTICES,
  beyond: (counted) =>
    new BeyondRequestBudget('The zipped shapefile', counted === 'bytes' ? 'shapefile' : 'shapefileRecords'),
};

/** Whether a geometry has at least one position (a LineString of [] has none). */
function hasPosition(geometry: Geometry): boolean {
  if (geometry.type === 'GeometryCollection') return geometry.geometries.some(hasPosition);
  const walk = (c: unknown): boolean => Array.isArray(c) && (typeof c[0] === 'number' || c.some(walk));
  return walk(geometry.coordinates);
}

export function summarize(collection: FeatureCollection): GeometrySummary {
  const types = new Set(collection.features.map((f) => f.geometry.type));
  const [west, south, east, north] = turfBbox(collection, { recompute: true }) as [number, number, number, number];
  const inRange = [west, east].every((x) => x >= -180 && x <= 180) && [south, north].every((y) => y >= -90 && y <= 90);
  if (!inRange) {
    throw new GeoFileError(
      'coordinate_range',
      `The coordinates reach outside WGS 84 longitude/latitude (bounding box ${[west, south, east, north].join(', ')}); ` +
        'projected data (e.g. a shapefile in UTM) is not supported: export it in WGS 84 (EPSG:4326)',
    );
  }
  return {
    feature_count: collection.features.length,
    geometry_types: [...types].sort(),
    bbox: [west, south, east, north],
  };
}
