/**
 * Zipped shapefiles: each `.shp` with the `.dbf` of the same name (one layer each; shp-write and
 * most tools put points, lines and polygons in separate layers), read record by record by the
 * `shapefile` library, counted as they are read: the bytes of .shp and .dbf as they are unpacked
 * (unpacking stops at the limit), then records and coordinate tuples, the first limit passed
 * stopping the read. The unpacked files are held (up to the bytes limit) and the library reads
 * them from memory: given a stream it reads it as a Node stream run from the sources and as a web
 * stream once bundled (its ES module build, which lib/function-bundles.ts takes), and the two
 * cannot both be served. A `.cpg` naming UTF-8 sets the attribute
 * encoding (the default is Windows-1252). The `.prj` is not read: coordinates are taken as WGS 84
 * longitude/latitude, and a projected shapefile is refused by the coordinate range check.
 */
import type { Feature, Geometry } from 'geojson';
import type JSZip from 'jszip';
import { BeyondRequestBudget } from './budget.js';
import { GeoFileError } from './geo-file-error.js';
import { positionCount, ReadLimitError, yieldToEventLoop, type ReadLimits } from './read-limits.js';
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

/**
 * What a read of a shapefile may read. Past `maxBytes` or `maxFeatures` it throws what `beyond`
 * gives, when given (the request's budget), else ReadLimitError; past `maxVertices` ReadLimitError.
 */
export interface ShapefileLimits extends ReadLimits {
  beyond?: (counted: 'bytes' | 'records') => Error;
}

/** Records read between two turns of the event loop. */
const RECORDS_PER_TURN = 2_000;

/**
 * The features of every layer, in archive order; each layer's attributes become properties.
 * Throws GeoFileError for a layer that cannot be read, and past a limit what `limits` says.
 */
export async function shapefileFeatures(
  archive: Archive,
  layers: ShapefileLayer[],
  limits: ShapefileLimits,
): Promise<Feature<Geometry | null>[]> {
  const { open } = await import('shapefile');
  const features: Feature<Geometry | null>[] = [];
  let bytes = 0;
  let vertices = 0;
  const tooLarge = () =>
    limits.beyond?.('bytes') ??
    new ReadLimitError(
      `The zipped shapefile's .shp and .dbf files are larger than ${limits.maxBytes} bytes; at most that much is read`,
    );
  /** An entry unpacked, counted with those before it against `maxBytes`. A fresh copy: the library reads `.buffer`. */
  const unpacked = async (entry: JSZip.JSZipObject) => {
    const data = await archive.read(entry, { bytes: limits.maxBytes - bytes, error: tooLarge });
    bytes += data.length;
    return new Uint8Array(data);
  };
  for (const layer of layers) {
    if (!layer.dbf) {
      throw new GeoFileError(
        'unreadable_file',
        `The zipped shapefile has ${layer.shp.name} but not its ${layer.name}.dbf`,
      );
    }
    const encoding =
      layer.cpg && /utf-?8/i.test((await archive.read(layer.cpg)).toString('latin1')) ? 'utf-8' : undefined;
    const shp = await unpacked(layer.shp);
    const dbf = await unpacked(layer.dbf);
    try {
      const source = await open(shp, dbf, encoding ? { encoding } : undefined);
      for (;;) {
        const record = await source.read();
        if (record.done) break;
        const feature = record.value as Feature<Geometry | null>;
        if (features.length >= limits.maxFeatures) {
          throw (
            limits.beyond?.('records') ??
            new ReadLimitError(
              `The zipped shapefile holds more than ${limits.maxFeatures} records; at most ${limits.maxFeatures} are read`,
            )
          );
        }
        vertices += positionCount(feature.geometry);
        if (vertices > limits.maxVertices) {
          throw new ReadLimitError(
            `The zipped shapefile holds more than ${limits.maxVertices} coordinates; at most ${limits.maxVertices} are read`,
          );
        }
        features.push(feature);
        if (features.length % RECORDS_PER_TURN === 0) await yieldToEventLoop();
      }
    } catch (err) {
      if (err instanceof GeoFileError || err instanceof BeyondRequestBudget) throw err;
      throw new GeoFileError(
        'unreadable_file',
        `${layer.shp.name} in the zipped shapefile cannot be read (${(err as Error).message})`,
      );
    }
  }
  return features;
}
