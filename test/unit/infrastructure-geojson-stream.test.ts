/**
 * The streaming GeoJSON reader of the background extraction: the features the request's parse
 * gives, however the text is cut into chunks, and its limits counted while reading, before the
 * feature that passes one is complete.
 */
import { describe, expect, it } from 'vitest';
import { extractGeometries } from '../../shared/domain/infrastructure/extract.js';
import { streamGeojsonFeatures } from '../../shared/domain/infrastructure/geojson-stream.js';
import { ReadLimitError, type ReadLimits } from '../../shared/domain/infrastructure/read-limits.js';
import {
  ASSETS_GEOJSON,
  deepPropertiesGeojsonBytes,
  geojsonBytes,
  largeQuakesGeojsonBytes,
  usgsQuakes,
} from '../support/geo-files.js';

const NO_LIMITS: ReadLimits = { maxBytes: 1e9, maxFeatures: 1e9, maxVertices: 1e9 };

async function* chunksOf(data: Buffer, size: number): AsyncIterable<Buffer> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

const streamed = (data: Buffer, size = 4096, limits = NO_LIMITS) =>
  streamGeojsonFeatures(chunksOf(data, size), limits, 'cables.geojson');

/** What the request's parse makes of the same bytes (its features, or its refusal). */
async function atOnce(data: Buffer) {
  try {
    return (await extractGeometries('cables.geojson', data)).features.features;
  } catch (err) {
    return err as Error;
  }
}

async function failure(data: Buffer, limits = NO_LIMITS, size = 1000): Promise<Error> {
  try {
    await streamed(data, size, limits);
  } catch (err) {
    return err as Error;
  }
  throw new Error('it was read');
}

describe('streamGeojsonFeatures', () => {
  it.each([1, 7, 4096])(
    'gives the features of the whole text (the USGS sample), read in chunks of %i bytes',
    async (size) => {
      const data = geojsonBytes(usgsQuakes());
      const { features, counts } = await streamed(data, size);
      expect(features).toEqual(await atOnce(data));
      expect(features[0]).toMatchObject({ id: 'nc73787051', properties: { place: '7km WNW of Cobb, CA' } });
      expect(counts).toEqual({ bytes: data.length, features: 20, vertices: 20 });
    },
  );

  it('counts every position of lines and polygons, and not the bbox or properties', async () => {
    const data = geojsonBytes({ ...ASSETS_GEOJSON, bbox: [4.4, 51.9, 4.5, 51.96] });
    const { features, counts } = await streamed(data, 13);
    expect(features).toEqual(ASSETS_GEOJSON.features);
    expect(counts.vertices).toBe(1 + 3 + 5);
  });

  it('takes a single Feature, a bare geometry and a GeometryCollection as the request does', async () => {
    for (const value of [
      { ...ASSETS_GEOJSON.features[1], id: 7, bbox: [4.4, 51.9, 4.5, 51.95] },
      {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      },
      { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [1, 2] }] },
    ]) {
      const data = geojsonBytes(value);
      expect((await streamed(data, 5)).features).toEqual(await atOnce(data));
    }
  });

  it('keeps the order of many features, and the type may come last', async () => {
    const data = largeQuakesGeojsonBytes(256 * 1024);
    const reordered = Buffer.from(
      data
        .toString()
        .replace('{"type":"FeatureCollection","features":[', '{"features":[')
        .replace(/\]\}\n$/, '],"type":"FeatureCollection"}'),
    );
    const { features } = await streamed(reordered, 16 * 1024);
    expect(features).toEqual(await atOnce(data));
    expect(features.length).toBeGreaterThan(300);
  });

  it('reads UTF-8 with or without its byte order mark, and UTF-16', async () => {
    const value = {
      type: 'Feature',
      properties: { name: 'Kai Øst' },
      geometry: { type: 'Point', coordinates: [10.7, 59.9] },
    };
    const text = JSON.stringify(value);
    for (const data of [
      Buffer.from(text),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
    ]) {
      expect((await streamed(data, 3)).features[0]!.properties).toEqual({ name: 'Kai Øst' });
    }
  });

  it('stops at the first feature, coordinate or byte past its limits, before the feature is complete', async () => {
    const data = largeQuakesGeojsonBytes(64 * 1024);
    const features = await failure(data, { ...NO_LIMITS, maxFeatures: 40 });
    expect(features).toBeInstanceOf(ReadLimitError);
    expect(features).toMatchObject({
      problem: 'too_large',
      message: 'The GeoJSON holds more than 40 features; at most 40 are read',
    });
    // One line of 5,000 positions: refused at the 101st, not once the line is read.
    const line = geojsonBytes({
      type: 'LineString',
      coordinates: Array.from({ length: 5000 }, (_, i) => [i * 1e-4, 0]),
    });
    const vertices = await failure(line, { ...NO_LIMITS, maxVertices: 100 }, 64);
    expect(vertices.message).toBe('The GeoJSON holds more than 100 coordinates; at most 100 are read');
    expect((await failure(data, { ...NO_LIMITS, maxBytes: 5000 })).message).toBe(
      'The GeoJSON is larger than 5000 bytes; at most that much is read',
    );
  });

  it('refuses what the request refuses, with the same message', async () => {
    const cases = [
      geojsonBytes({ name: 'not geo' }),
      geojsonBytes([{ type: 'Point' }]),
      Buffer.from('{"type":"FeatureCollection","features":[{"type":"Feature","geometry":null'),
      geojsonBytes({ type: 'FeatureCollection' }),
      geojsonBytes({ type: 'FeatureCollection', features: { a: 1 } }),
      geojsonBytes({
        ...ASSETS_GEOJSON,
        features: [
          ...ASSETS_GEOJSON.features,
          { type: 'Feature', geometry: { type: 'Polygon', coordinates: [[1, 2]] } },
        ],
      }),
      deepPropertiesGeojsonBytes(200_000),
    ];
    // The parser's own words for broken JSON differ (the part in parentheses), not the rest.
    const said = (err: Error) => [(err as { problem?: string }).problem, err.message.replace(/ \(.*\)$/, '')];
    for (const data of cases) {
      const expected = await atOnce(data);
      expect(expected).toBeInstanceOf(Error);
      expect(said(await failure(data))).toEqual(said(expected as Error));
    }
  });
});
