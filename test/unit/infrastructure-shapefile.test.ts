/**
 * Zipped shapefiles read record by record, as the background extraction reads them: every record
 * of a large file, in order, and the limits counted while reading.
 */
import { describe, expect, it } from 'vitest';
import { STREAM_LIMITS } from '../../shared/domain/infrastructure/background.js';
import { ReadLimitError } from '../../shared/domain/infrastructure/read-limits.js';
import {
  shapefileFeatures,
  shapefileLayers,
  type ShapefileLimits,
} from '../../shared/domain/infrastructure/shapefile.js';
import { openArchive } from '../../shared/domain/infrastructure/zip.js';
import { repeatShapefileRecords, shapefileZipBytes, usgsQuakes } from '../support/geo-files.js';

async function read(zip: Uint8Array, limits: ShapefileLimits = STREAM_LIMITS) {
  const archive = await openArchive(zip, 'The file is not readable as a zipped shapefile');
  return shapefileFeatures(archive, shapefileLayers(archive), limits);
}

async function failure(zip: Uint8Array, limits: ShapefileLimits): Promise<Error> {
  try {
    await read(zip, limits);
  } catch (err) {
    return err as Error;
  }
  throw new Error('it was read');
}

describe('shapefileFeatures', () => {
  it('reads 160,000 points, every record in order (read whole, they overflowed the stack)', async () => {
    const sample = {
      type: 'FeatureCollection' as const,
      features: Array.from({ length: 1000 }, (_, i) => ({
        type: 'Feature' as const,
        properties: { post: i },
        geometry: { type: 'Point' as const, coordinates: [10 + i * 1e-3, 59] },
      })),
    };
    const features = await read(await repeatShapefileRecords(await shapefileZipBytes(sample), 160));
    expect(features).toHaveLength(160_000);
    expect(features[0]).toEqual({ type: 'Feature', properties: { post: 0 }, geometry: sample.features[0]!.geometry });
    expect(features[159_999]).toEqual({
      type: 'Feature',
      properties: { post: 999 },
      geometry: sample.features[999]!.geometry,
    });
  });

  it('gives the attributes of a real sample as they are', async () => {
    const quakes = usgsQuakes();
    const features = await read(await shapefileZipBytes(quakes));
    expect(features).toHaveLength(20);
    expect(features[0]!.properties).toMatchObject({ place: '7km WNW of Cobb, CA', net: 'nc', code: '73787051' });
    expect(features[0]!.geometry).toEqual({ type: 'Point', coordinates: [-122.8028336, 38.8344994] });
  });

  it('stops at the first record, coordinate or byte past its limits', async () => {
    const zip = await repeatShapefileRecords(await shapefileZipBytes(usgsQuakes()), 10);
    const records = await failure(zip, { ...STREAM_LIMITS, maxFeatures: 150 });
    expect(records).toBeInstanceOf(ReadLimitError);
    expect(records).toMatchObject({
      problem: 'too_large',
      message: 'The zipped shapefile holds more than 150 records; at most 150 are read',
    });
    expect((await failure(zip, { ...STREAM_LIMITS, maxVertices: 99 })).message).toBe(
      'The zipped shapefile holds more than 99 coordinates; at most 99 are read',
    );
    const bytes = await failure(zip, { ...STREAM_LIMITS, maxBytes: 100_000 });
    expect(bytes).toBeInstanceOf(ReadLimitError);
    expect(bytes.message).toBe(
      "The zipped shapefile's .shp and .dbf files are larger than 100000 bytes; at most that much is read",
    );
  });

  it('a .shp cut short is unreadable, and says which', async () => {
    const JSZip = (await import('jszip')).default;
    const zip = await JSZip.loadAsync(await shapefileZipBytes(usgsQuakes()));
    const shp = await zip.file('POINT.shp')!.async('nodebuffer');
    zip.file('POINT.shp', shp.subarray(0, 50));
    const err = await failure(await zip.generateAsync({ type: 'nodebuffer' }), STREAM_LIMITS);
    expect(err).toMatchObject({
      problem: 'unreadable_file',
      message: expect.stringMatching(/^POINT\.shp in the zipped shapefile cannot be read/),
    });
  });
});
