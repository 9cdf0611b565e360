/** Infrastructure files: geometries and properties out of KML, KMZ, GeoJSON and zipped shapefiles. */
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { extractGeometries } from '../../shared/domain/infrastructure/extract.js';
import { GeoFileError } from '../../shared/domain/infrastructure/geo-file-error.js';
import {
  BeyondRequestBudget,
  MAX_SYNC_GEOJSON_BYTES,
  MAX_SYNC_KML_BYTES,
} from '../../shared/domain/infrastructure/budget.js';
import {
  ASSETS_GEOJSON,
  ASSETS_SUMMARY,
  geojsonBytes,
  kmlBytes,
  kmzBytes,
  largeGeojsonBytes,
  largeKmlBytes,
  largeQuakesGeojsonBytes,
  PORT_KML,
  PORT_KML_SUMMARY,
  repeatShapefileRecords,
  shapefileZipBytes,
  usgsQuakes,
} from '../support/geo-files.js';

async function refusal(filename: string, data: Uint8Array): Promise<Error> {
  try {
    await extractGeometries(filename, data);
  } catch (err) {
    return err as Error;
  }
  throw new Error(`${filename} was accepted`);
}

const byName = (features: { properties: Record<string, unknown> | null }[]) =>
  Object.fromEntries(features.map((f) => [f.properties?.name, f.properties]));

describe('KML and KMZ', () => {
  it('a placemark line and polygon become features with their ExtendedData; a placemark without geometry is left out', async () => {
    const { format, features, summary } = await extractGeometries('port.kml', kmlBytes());
    expect(format).toBe('kml');
    expect(summary).toEqual(PORT_KML_SUMMARY);
    expect(features.type).toBe('FeatureCollection');
    expect(features.features.map((f) => f.geometry.type)).toEqual(['LineString', 'Polygon']);
    expect(byName(features.features)).toMatchObject({
      'Quay fence': { description: 'Outer fence along the quay', owner: 'Port Authority', height_m: '3.5' },
      'Container yard': { security_level: 'restricted' },
    });
    expect(features.features[0]?.geometry).toEqual({
      type: 'LineString',
      coordinates: [
        [10.7, 59.9, 0],
        [10.705, 59.902, 0],
        [10.71, 59.901, 0],
      ],
    });
  });

  it('a KMZ gives what its doc.kml gives', async () => {
    const fromKmz = await extractGeometries('port.kmz', await kmzBytes());
    const fromKml = await extractGeometries('port.kml', kmlBytes());
    expect(fromKmz.format).toBe('kmz');
    expect(fromKmz.features).toEqual(fromKml.features);
    expect(fromKmz.summary).toEqual(fromKml.summary);
  });

  it('a KMZ whose .kml is not KML is unreadable', async () => {
    const zip = new JSZip().file('doc.kml', '<gpx/>');
    const err = await refusal('port.kmz', await zip.generateAsync({ type: 'nodebuffer' }));
    expect(err).toMatchObject({
      problem: 'unreadable_file',
      message: 'doc.kml in the KMZ archive is not a KML document',
    });
  });

  it('a MultiGeometry becomes a GeometryCollection', async () => {
    const kml = PORT_KML.replace(
      '<name>A note without a place</name>',
      '<name>Gate pair</name><MultiGeometry><Point><coordinates>10.70,59.90</coordinates></Point><Point><coordinates>10.71,59.91</coordinates></Point></MultiGeometry>',
    );
    const { summary } = await extractGeometries('port.kml', kmlBytes(kml));
    expect(summary.geometry_types).toEqual(['GeometryCollection', 'LineString', 'Polygon']);
    expect(summary.feature_count).toBe(3);
  });

  it('leaves a KML beyond the request budget to the background, before parsing it', async () => {
    const huge = Buffer.alloc(MAX_SYNC_KML_BYTES + 1, 0x20);
    huge.write('<kml>', 0);
    const err = await refusal('huge.kml', huge);
    expect(err).toBeInstanceOf(BeyondRequestBudget);
    expect(err.message).toBe('The KML document is more than 4194304 bytes of KML, more than a request extracts');
  });

  it('stops unpacking a KMZ whose KML passes the request budget', async () => {
    const err = await refusal('cables.kmz', await kmzBytes(largeKmlBytes(MAX_SYNC_KML_BYTES + 4096).toString()));
    expect(err).toBeInstanceOf(BeyondRequestBudget);
    expect(err.message).toMatch(/^doc\.kml in the KMZ archive is more than 4194304 bytes of KML/);
  });
});

describe('GeoJSON', () => {
  it('a FeatureCollection keeps its features and properties', async () => {
    const { format, features, summary } = await extractGeometries('assets.geojson', geojsonBytes());
    expect(format).toBe('geojson');
    expect(summary).toEqual(ASSETS_SUMMARY);
    expect(features.features).toEqual(ASSETS_GEOJSON.features);
  });

  it('a single Feature, a bare geometry and a GeometryCollection are taken too', async () => {
    const feature = ASSETS_GEOJSON.features[0];
    expect((await extractGeometries('gate.json', geojsonBytes(feature))).summary).toEqual({
      feature_count: 1,
      geometry_types: ['Point'],
      bbox: [4.4, 51.9, 4.4, 51.9],
    });
    const bare = await extractGeometries(
      'line.geojson',
      geojsonBytes({
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      }),
    );
    expect(bare.features.features).toEqual([
      {
        type: 'Feature',
        properties: {},
        geometry: {
          type: 'LineString',
          coordinates: [
            [0, 0],
            [1, 1],
          ],
        },
      },
    ]);
    const collection = {
      type: 'GeometryCollection',
      geometries: [
        { type: 'Point', coordinates: [1, 2] },
        { type: 'Point', coordinates: [3, 4] },
      ],
    };
    expect((await extractGeometries('pair.geojson', geojsonBytes(collection))).summary).toEqual({
      feature_count: 1,
      geometry_types: ['GeometryCollection'],
      bbox: [1, 2, 3, 4],
    });
  });

  it('a malformed geometry is unreadable and says which feature', async () => {
    const bad = {
      ...ASSETS_GEOJSON,
      features: [
        ...ASSETS_GEOJSON.features,
        { type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[1, 2]] } },
      ],
    };
    const err = await refusal('assets.geojson', geojsonBytes(bad));
    expect(err).toMatchObject({
      problem: 'unreadable_file',
      message:
        'The geometry of GeoJSON feature 3 is a Polygon whose coordinates are not positions [longitude, latitude]',
    });
  });

  it('leaves GeoJSON beyond the request budget to the background, before parsing it', async () => {
    const err = await refusal('quakes.geojson', largeQuakesGeojsonBytes(MAX_SYNC_GEOJSON_BYTES + 1));
    expect(err).toBeInstanceOf(BeyondRequestBudget);
    expect(err.message).toBe('The file is more than 8388608 bytes of GeoJSON, more than a request extracts');
    // Named as something else, it is not parsed either: the name and the content disagree.
    const named = await refusal('quakes.kml', largeQuakesGeojsonBytes(MAX_SYNC_GEOJSON_BYTES + 1));
    expect(named).toMatchObject({ problem: 'format_mismatch', message: expect.stringMatching(/the content is JSON$/) });
  });

  it('coordinates outside longitude/latitude are refused', async () => {
    const err = await refusal('utm.geojson', geojsonBytes({ type: 'Point', coordinates: [597000, 6643000] }));
    expect(err).toBeInstanceOf(GeoFileError);
    expect(err).toMatchObject({ problem: 'coordinate_range' });
    expect(err.message).toMatch(/outside WGS 84 longitude\/latitude \(bounding box 597000, 6643000, 597000, 6643000\)/);
  });
});

describe('zipped shapefiles', () => {
  it('every layer (shp-write writes one per geometry type) becomes features with the .dbf attributes', async () => {
    const { format, features, summary } = await extractGeometries('assets.zip', await shapefileZipBytes());
    expect(format).toBe('shapefile');
    expect(summary).toEqual(ASSETS_SUMMARY);
    expect(byName(features.features)).toEqual({
      'Gate 4': { name: 'Gate 4', kind: 'gate' },
      'Power cable': { name: 'Power cable', kind: 'cable' },
      'Berth 7': { name: 'Berth 7', kind: 'berth' },
    });
  });

  it('a .shp without its .dbf is unreadable', async () => {
    const zip = await JSZip.loadAsync(await shapefileZipBytes());
    zip.remove('POINT.dbf');
    const err = await refusal('assets.zip', await zip.generateAsync({ type: 'nodebuffer' }));
    expect(err).toMatchObject({
      problem: 'unreadable_file',
      message: 'The zipped shapefile has POINT.shp but not its POINT.dbf',
    });
  });

  it('ignores the .prj: a projected shapefile is refused by the coordinate range', async () => {
    const utm = {
      type: 'FeatureCollection' as const,
      features: [
        {
          type: 'Feature' as const,
          properties: { name: 'x' },
          geometry: { type: 'Point' as const, coordinates: [597000, 6643000] },
        },
      ],
    };
    const err = await refusal('utm.zip', await shapefileZipBytes(utm));
    expect(err).toMatchObject({ problem: 'coordinate_range' });
  });

  it('reads attributes as UTF-8 when a .cpg says so (Windows-1252 otherwise)', async () => {
    const one = {
      type: 'FeatureCollection' as const,
      features: [
        {
          type: 'Feature' as const,
          properties: { name: 'Kai ##st' },
          geometry: { type: 'Point' as const, coordinates: [10.7, 59.9] },
        },
      ],
    };
    const zip = await JSZip.loadAsync(await shapefileZipBytes(one));
    const dbf = Buffer.from(await zip.file('POINT.dbf')!.async('nodebuffer'));
    const at = dbf.indexOf('##');
    dbf.set([0xc3, 0x98], at); // "Ø" in UTF-8, same two bytes as "##"
    zip.file('POINT.dbf', dbf);
    const asLatin = await extractGeometries('quay.zip', await zip.generateAsync({ type: 'nodebuffer' }));
    expect(asLatin.features.features[0]?.properties?.name).toBe('Kai Ã˜st');
    zip.file('POINT.cpg', 'UTF-8');
    const asUtf8 = await extractGeometries('quay.zip', await zip.generateAsync({ type: 'nodebuffer' }));
    expect(asUtf8.features.features[0]?.properties?.name).toBe('Kai Øst');
  });

  it('stops reading past 8 MiB of .shp and .dbf, a zip bomb of records too, and leaves it to the background', async () => {
    // The USGS sample's records (3.8 KB each in the .dbf) 1,000 times over: 75 MB in a zip the direct upload takes.
    const bomb = await repeatShapefileRecords(await shapefileZipBytes(usgsQuakes()), 1000);
    expect(bomb.length).toBeLessThan(4 * 1024 * 1024);
    const err = await refusal('quakes.zip', bomb);
    expect(err).toBeInstanceOf(BeyondRequestBudget);
    expect(err.message).toBe(
      'The zipped shapefile is more than 8388608 bytes of shapefile data (.shp and .dbf, unpacked), more than a request extracts',
    );
  });

  it('stops reading past 50,000 records, however small, and leaves it to the background', async () => {
    const err = await refusal('posts.zip', await repeatShapefileRecords(await shapefileZipBytes(posts(1000)), 51));
    expect(err).toBeInstanceOf(BeyondRequestBudget);
    expect(err.message).toBe('The zipped shapefile holds more than 50000 records, more than a request extracts');
    // 49,000 of them are read by the request, every one.
    const within = await extractGeometries(
      'posts.zip',
      await repeatShapefileRecords(await shapefileZipBytes(posts(1000)), 49),
    );
    expect(within.summary.feature_count).toBe(49_000);
  });
});

/** `count` survey posts: points with a number, the smallest records a shapefile has. */
const posts = (count: number) => ({
  type: 'FeatureCollection' as const,
  features: Array.from({ length: count }, (_, i) => ({
    type: 'Feature' as const,
    properties: { post: i },
    geometry: { type: 'Point' as const, coordinates: [10 + i * 1e-3, 59] },
  })),
});

describe('no geometries', () => {
  it.each([
    [
      'empty.geojson',
      () => geojsonBytes({ type: 'FeatureCollection', features: [] }),
      'The file holds no geometries: GeoJSON with no features',
    ],
    [
      'nulls.geojson',
      () =>
        geojsonBytes({
          type: 'FeatureCollection',
          features: [{ type: 'Feature', properties: { name: 'x' }, geometry: null }],
        }),
      'The file holds no geometries: GeoJSON with 1 feature, none with coordinates',
    ],
    [
      'empty-line.geojson',
      () => geojsonBytes({ type: 'LineString', coordinates: [] }),
      'The file holds no geometries: GeoJSON with 1 feature, none with coordinates',
    ],
    [
      'names.kml',
      () =>
        kmlBytes(
          '<kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>only a name</name></Placemark></Document></kml>',
        ),
      'The file holds no geometries: a KML document with 1 feature, none with coordinates',
    ],
    [
      'folder.kmz',
      () => kmzBytes('<kml><Document><Folder/></Document></kml>'),
      'The file holds no geometries: a KMZ archive with no features',
    ],
  ])('%s', async (name, make, message) => {
    const err = await refusal(name, await make());
    expect(err).toMatchObject({ problem: 'no_geometries', message });
  });
});

describe('large files', () => {
  // How long they take is bin/bench-extract.ts's business; here, that they are read whole.
  it.each([
    ['cables.kml', largeKmlBytes],
    ['cables.geojson', largeGeojsonBytes],
  ])('a 4 MB %s is extracted whole', { timeout: 60_000 }, async (name, make) => {
    const { summary } = await extractGeometries(name, make(4 * 1024 * 1024));
    expect(summary.feature_count).toBeGreaterThan(5000);
  });
});
