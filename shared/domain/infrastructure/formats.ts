/**
 * The file formats an infrastructure file may have, and what a file's name says about it.
 * What its content says is detect.ts's job; the two must agree.
 */
import { INFRASTRUCTURE_FORMATS } from '../../schemas/infrastructure.js';

export type InfrastructureFormat = (typeof INFRASTRUCTURE_FORMATS)[number];

/** File name extensions, lower case, and the format each one promises. */
const BY_EXTENSION: Readonly<Record<string, InfrastructureFormat>> = {
  kml: 'kml',
  kmz: 'kmz',
  geojson: 'geojson',
  json: 'geojson',
  zip: 'shapefile',
};

export const ACCEPTED_EXTENSIONS = Object.keys(BY_EXTENSION).map((e) => `.${e}`);

/** How a format is named in messages ("... is not readable as a KML document"). */
export const FORMAT_LABEL: Readonly<Record<InfrastructureFormat, string>> = {
  kml: 'a KML document',
  kmz: 'a KMZ archive',
  geojson: 'GeoJSON',
  shapefile: 'a zipped shapefile',
};

/** The extension a file of this format should carry, for "rename it" hints. */
export const FORMAT_EXTENSION: Readonly<Record<InfrastructureFormat, string>> = {
  kml: '.kml',
  kmz: '.kmz',
  geojson: '.geojson',
  shapefile: '.zip',
};

/** The extension of a file name, lower case, without the dot; '' when it has none. */
export function extensionOf(filename: string): string {
  const base = baseName(filename);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** The format a file name promises, or null for a name we do not take. */
export function formatFromFilename(filename: string): InfrastructureFormat | null {
  return BY_EXTENSION[extensionOf(filename)] ?? null;
}

/** The last path segment of a client-supplied name (browsers on Windows may send a full path). */
export function baseName(filename: string): string {
  return (filename.split(/[\\/]/).pop() ?? '').trim();
}
