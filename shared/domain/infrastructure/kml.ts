/** KML documents: XML parsed with @xmldom/xmldom, converted by @tmcw/togeojson. */
import type { Document } from '@xmldom/xmldom';
import type { Feature, Geometry } from 'geojson';
import { MAX_SYNC_KML_BYTES } from '../../schemas/infrastructure.js';
import { parseXml } from '../../xml.js';

/**
 * Largest KML text (directly, or unpacked from a KMZ) a request extracts itself: its DOM takes
 * about 100 times the text in memory and togeojson walks it placemark by placemark, so the time
 * grows with the text. Measured on the 2-core build machine (docs/benchmarks.md,
 * bin/bench-map-upload.ts): 4 MiB of points (44,000 placemarks; points put the most placemarks
 * in a megabyte) in about 9 s and 450 MB; 20 MiB took 30 s and 1.7 GB, past a request's 29 s. A KMZ's text is
 * counted while it is unpacked, so a larger one is refused before it is unpacked further, let
 * alone parsed. Larger documents go through upload-url and are extracted by a worker, streaming
 * (kml-stream.ts). GeoJSON has no such bound.
 */
export { MAX_SYNC_KML_BYTES };

/** KML text past what a request extracts (MAX_SYNC_KML_BYTES): for the background extraction. */
export class BeyondRequestBudget extends Error {
  constructor(readonly what: string) {
    super(`${what} is more than ${MAX_SYNC_KML_BYTES} bytes of KML, more than a request extracts`);
    this.name = 'BeyondRequestBudget';
  }
}

export function assertKmlSize(bytes: number, what = 'The KML document'): void {
  if (bytes > MAX_SYNC_KML_BYTES) throw new BeyondRequestBudget(what);
}

/** The local name of the root element, e.g. `kml` for `<kml xmlns="http://www.opengis.net/kml/2.2">`. */
export function rootElementName(doc: Document): string {
  const root = doc.documentElement;
  return root?.localName ?? root?.nodeName ?? '';
}

export function isKmlDocument(doc: Document): boolean {
  return rootElementName(doc) === 'kml';
}

/**
 * Every placemark (in folders too) as a feature: its geometry (MultiGeometry becomes a
 * GeometryCollection) and its properties: name, description, style and ExtendedData values.
 */
export async function kmlFeatures(doc: Document): Promise<Feature<Geometry | null>[]> {
  const { kml } = await import('@tmcw/togeojson');
  return kml(doc).features;
}

/**
 * The XML parser, loaded when a file turns out to be XML: only KML and KMZ need it, so a GeoJSON
 * upload never evaluates it, and a function that starts evaluates none of the format parsers.
 */
export async function xmlParser(): Promise<(text: string) => Document> {
  const { DOMParser } = await import('@xmldom/xmldom');
  return (text) => parseXml(DOMParser, text);
}
