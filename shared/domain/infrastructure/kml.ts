/** KML documents: XML parsed with @xmldom/xmldom, converted by @tmcw/togeojson. */
import type { Document } from '@xmldom/xmldom';
import type { Feature, Geometry } from 'geojson';
import { parseXml } from '../../xml.js';

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
