/**
 * Zipped shapefiles: each `.shp` with the `.dbf` of the same name (one layer each; shp-write and
 * most tools put points, lines and polygons in separate layers), read from memory by the
 * `shapefile` library. A `.cpg` naming UTF-8 sets the attribute encoding (the default is
 * Windows-1252). The `.prj` is not read: coordinates are taken as WGS 84 longitude/latitude, and
 * a projected shapefile is refused by the coordinate range check.
 */
import type { Feature, Geometry } from 'geojson';
import type JSZip from 'jszip';
import { GeoFileError } from './geo-file-error.js';
import { entriesEnding, type Archive } from './zip.js';

export interface ShapefileLayer {
  /** The path of the .shp without its extension. */
  name: string;
  shp: JSZip.JSZipObject;
  dbf: JSZip.JSZipObject | undefined;
  cpg: JSZip.JSZipObject | undefined;
}

const stem = (name: string) => name.replace(/\.[^./]+$/, '').toLowerCase();

/** The layers of an archive: every .shp with its companions, matched by name (case-insensitive). */
export function shapefileLayers(archive: Archive): ShapefileLayer[] {
  const companion = (extension: string) => new Map(entriesEnding(archive, extension).map((e) => [stem(e.name), e]));
  const dbfs = companion('.dbf');
  const cpgs = companion('.cpg');
  return entriesEnding(archive, '.shp').map((shp) => ({
    name: shp.name.replace(/\.[^./]+$/, ''),
    shp,
    dbf: dbfs.get(stem(shp.name)),
    cpg: cpgs.get(stem(shp.name)),
  }));
}

/** The features of every layer, in archive order; each layer's attributes become properties. */
export async function shapefileFeatures(
  archive: Archive,
  layers: ShapefileLayer[],
): Promise<Feature<Geometry | null>[]> {
  const features: Feature<Geometry | null>[] = [];
  for (const layer of layers) {
    if (!layer.dbf) {
      throw new GeoFileError(
        'unreadable_file',
        `The zipped shapefile has ${layer.shp.name} but not its ${layer.name}.dbf`,
      );
    }
    // Fresh copies: the library reads `.buffer`, which for a pooled Buffer holds other bytes too.
    const shp = new Uint8Array(await archive.read(layer.shp));
    const dbf = new Uint8Array(await archive.read(layer.dbf));
    const encoding =
      layer.cpg && /utf-?8/i.test((await archive.read(layer.cpg)).toString('latin1')) ? 'utf-8' : undefined;
    try {
      const { read: readShapefile } = await import('shapefile');
      const collection = await readShapefile(shp, dbf, encoding ? { encoding } : undefined);
      features.push(...(collection.features as Feature<Geometry | null>[]));
    } catch (err) {
      throw new GeoFileError(
        'unreadable_file',
        `${layer.shp.name} in the zipped shapefile cannot be read (${(err as Error).message})`,
      );
    }
  }
  return features;
}
