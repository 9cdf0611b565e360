/**
 * What a file is, by its name and by its content, and whether the two agree:
 *   KML       XML whose root element is <kml>
 *   KMZ       a zip archive holding a .kml (doc.kml at its root by convention, else the first)
 *   GeoJSON   JSON whose top-level "type" is FeatureCollection, Feature or a geometry type
 *   shapefile a zip archive holding a .shp and the .dbf of the same name (a .prj is ignored)
 * Detection opens the content once; what it opened is handed on to extraction.
 */
import type { Document } from '@xmldom/xmldom';
import type { GeoJsonObject } from 'geojson';
import type JSZip from 'jszip';
import {
  ACCEPTED_EXTENSIONS,
  baseName,
  FORMAT_EXTENSION,
  FORMAT_LABEL,
  formatFromFilename,
  type InfrastructureFormat,
} from './formats.js';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../../json-depth.js';
import { assertWithinRequestBudget, requestBudget } from './budget.js';
import { GeoFileError } from './geo-file-error.js';
import { isGeoJson } from './geojson.js';
import { isKmlDocument, rootElementName, xmlParser } from './kml.js';
import { shapefileLayers, type ShapefileLayer } from './shapefile.js';
import { firstSignificantChar, decodeText } from './text.js';
import { entriesEnding, looksLikeZip, openArchive, type Archive } from './zip.js';

/** The outer kind of a file, from its first bytes. */
export type Container = 'zip' | 'xml' | 'json' | 'unknown';

export function sniffContainer(data: Uint8Array): Container {
  if (looksLikeZip(data)) return 'zip';
  const first = firstSignificantChar(data);
  if (first === '<') return 'xml';
  if (first === '{' || first === '[') return 'json';
  return 'unknown';
}

/** A file opened as one of our formats. */
export type OpenedFile =
  | { format: 'kml'; document: Document }
  | { format: 'kmz'; archive: Archive; kml: JSZip.JSZipObject }
  | { format: 'shapefile'; archive: Archive; layers: ShapefileLayer[] }
  | { format: 'geojson'; value: GeoJsonObject };

/** Readable, but none of our formats: `what` says what it is instead. */
export interface Unrecognised {
  format: null;
  what: string;
}

export const unreadable = (label: string, reason: string) =>
  new GeoFileError('unreadable_file', `The file is not readable as ${label}: ${reason}`);

/** What JSON that is not GeoJSON is called in messages. */
export const NOT_GEOJSON = 'JSON that is not GeoJSON (no FeatureCollection, Feature or geometry "type")';

/**
 * Opens the content as whatever it is, regardless of any name. `expected` decides between KMZ
 * and shapefile for a zip holding both, and words the messages. Throws an `unreadable_file`
 * error when the bytes cannot be read at all.
 */
export async function openContent(
  data: Uint8Array,
  expected?: InfrastructureFormat,
): Promise<OpenedFile | Unrecognised> {
  const label = expected ? FORMAT_LABEL[expected] : 'KML, KMZ, GeoJSON or a zipped shapefile';
  if (data.length === 0) throw unreadable(label, 'it is empty');
  switch (sniffContainer(data)) {
    case 'zip': {
      const archive = await openArchive(data, `The file is not readable as ${label}`);
      const layers = shapefileLayers(archive);
      const kmls = entriesEnding(archive, '.kml');
      const kml = kmls.find((e) => e.name.toLowerCase() === 'doc.kml') ?? kmls[0];
      if (layers.length > 0 && (expected === 'shapefile' || !kml)) return { format: 'shapefile', archive, layers };
      if (kml) return { format: 'kmz', archive, kml };
      return { format: null, what: 'a zip archive holding neither a .kml nor a .shp' };
    }
    case 'xml': {
      // Too big to parse here: beyond the request's budget, unless it was not meant to be KML anyway.
      if (expected && expected !== 'kml' && data.length > requestBudget('kml')) return { format: null, what: 'XML' };
      assertWithinRequestBudget('kml', data.length, 'The KML document');
      const parseXml = await xmlParser();
      let document: Document;
      try {
        document = parseXml(decodeText(data));
      } catch (err) {
        throw unreadable(label, `the XML does not parse (${(err as Error).message})`);
      }
      if (isKmlDocument(document)) return { format: 'kml', document };
      return { format: null, what: `XML whose root element is <${rootElementName(document)}>, not <kml>` };
    }
    case 'json': {
      // As for XML: past the budget, parsed only in the background.
      if (expected && expected !== 'geojson' && data.length > requestBudget('geojson'))
        return { format: null, what: 'JSON' };
      assertWithinRequestBudget('geojson', data.length, 'The file');
      const text = decodeText(data);
      // Before the parse: a deeper value would overflow what walks it later (shared/json-depth.ts).
      if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH))
        throw unreadable(label, `the JSON is nested deeper than ${MAX_JSON_DEPTH} levels`);
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (err) {
        throw unreadable(label, `the JSON does not parse (${(err as Error).message})`);
      }
      if (isGeoJson(value)) return { format: 'geojson', value };
      return { format: null, what: NOT_GEOJSON };
    }
    default:
      throw unreadable(label, 'it is neither XML, JSON nor a zip archive');
  }
}

/** The format of the content alone, or null when it is none of ours or unreadable. */
export async function detectContentFormat(data: Uint8Array): Promise<InfrastructureFormat | null> {
  try {
    return (await openContent(data)).format;
  } catch (err) {
    if (err instanceof GeoFileError) return null;
    throw err;
  }
}

/** Opens a file as the format its name promises; 422-worthy errors when it cannot be or is not. */
export async function openByNameAndContent(filename: string, data: Uint8Array): Promise<OpenedFile> {
  const promised = formatFromFilename(filename);
  if (!promised) {
    throw new GeoFileError(
      'file_type',
      `The file name must end in ${ACCEPTED_EXTENSIONS.join(', ')} (a .zip being a zipped shapefile); got ${JSON.stringify(baseName(filename))}`,
    );
  }
  const content = await openContent(data, promised);
  if (content.format === promised) return content;
  throw formatMismatch(
    filename,
    promised,
    content.format === null
      ? content.what
      : `${FORMAT_LABEL[content.format]} (name it ${FORMAT_EXTENSION[content.format]})`,
  );
}

/** A file whose name promises one format and whose content `is` something else. */
export function formatMismatch(filename: string, promised: InfrastructureFormat, is: string): GeoFileError {
  return new GeoFileError(
    'format_mismatch',
    `The name ${JSON.stringify(baseName(filename))} promises ${FORMAT_LABEL[promised]}, but the content is ${is}`,
  );
}
