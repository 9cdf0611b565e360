/** Infrastructure files: what a file is by its name and by its content, and when the two disagree. */
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import {
  detectContentFormat,
  openByNameAndContent,
  sniffContainer,
} from '../../shared/domain/infrastructure/detect.js';
import { baseName, formatFromFilename } from '../../shared/domain/infrastructure/formats.js';
import { GeoFileError } from '../../shared/domain/infrastructure/geo-file-error.js';
import {
  deepPropertiesGeojsonBytes,
  geojsonBytes,
  kmlBytes,
  kmzBytes,
  PORT_KML,
  shapefileZipBytes,
} from '../support/geo-files.js';

const GPX = '<?xml version="1.0"?><gpx version="1.1" creator="x"><wpt lat="59.9" lon="10.7"/></gpx>';

async function refusal(filename: string, data: Uint8Array): Promise<GeoFileError> {
  try {
    await openByNameAndContent(filename, data);
  } catch (err) {
    if (err instanceof GeoFileError) return err;
    throw err;
  }
  throw new Error(`${filename} was accepted`);
}

describe('format by name', () => {
  it.each([
    ['site.kml', 'kml'],
    ['SITE.KML', 'kml'],
    ['site.kmz', 'kmz'],
    ['site.geojson', 'geojson'],
    ['site.json', 'geojson'],
    ['site.zip', 'shapefile'],
    ['C:\\maps\\site.kmz', 'kmz'],
    ['maps/2026/site.v2.geojson', 'geojson'],
  ])('%s is %s', (name, format) => {
    expect(formatFromFilename(name)).toBe(format);
  });

  it.each(['site.txt', 'site.shp', 'kml', '.kml', '', 'site.kml.gz'])('%j is none of ours', (name) => {
    expect(formatFromFilename(name)).toBeNull();
  });

  it('keeps only the last path segment of a client-supplied name', () => {
    expect(baseName('C:\\Users\\me\\site.kml')).toBe('site.kml');
    expect(baseName('../../etc/site.kml')).toBe('site.kml');
  });
});

describe('format by content', () => {
  it('sniffs the container from the first bytes', async () => {
    expect(sniffContainer(await kmzBytes())).toBe('zip');
    expect(sniffContainer(kmlBytes())).toBe('xml');
    expect(sniffContainer(Buffer.from('\ufeff  \n {"type":"Point"}'))).toBe('json');
    expect(sniffContainer(Buffer.from('[1,2]'))).toBe('json');
    expect(sniffContainer(Buffer.from([0xff, 0xfe, ...Buffer.from('<kml/>', 'utf16le')]))).toBe('xml');
    expect(sniffContainer(Buffer.from('hello'))).toBe('unknown');
    expect(sniffContainer(Buffer.alloc(0))).toBe('unknown');
  });

  it('KML is XML with a kml root; KMZ a zip with a .kml; GeoJSON a typed JSON object; a shapefile a zip with .shp and .dbf', async () => {
    expect(await detectContentFormat(kmlBytes())).toBe('kml');
    expect(await detectContentFormat(await kmzBytes())).toBe('kmz');
    expect(await detectContentFormat(geojsonBytes())).toBe('geojson');
    expect(await detectContentFormat(geojsonBytes({ type: 'Point', coordinates: [1, 2] }))).toBe('geojson');
    expect(await detectContentFormat(geojsonBytes({ type: 'Feature', properties: {}, geometry: null }))).toBe(
      'geojson',
    );
    expect(await detectContentFormat(await shapefileZipBytes())).toBe('shapefile');
  });

  it('finds a KML with a namespace prefix-free root and any namespace, in UTF-16 too', async () => {
    const kml21 = '<kml xmlns="http://earth.google.com/kml/2.1"><Document/></kml>';
    expect(await detectContentFormat(Buffer.from(kml21))).toBe('kml');
    expect(
      await detectContentFormat(
        Buffer.from([0xff, 0xfe, ...Buffer.from(PORT_KML.replace('UTF-8', 'UTF-16'), 'utf16le')]),
      ),
    ).toBe('kml');
  });

  it('is none of ours for other XML, other JSON, other zips and anything else', async () => {
    const zip = new JSZip();
    zip.file('readme.txt', 'hello');
    expect(await detectContentFormat(Buffer.from(GPX))).toBeNull();
    expect(await detectContentFormat(geojsonBytes({ name: 'not geo' }))).toBeNull();
    expect(await detectContentFormat(geojsonBytes([{ type: 'Point' }]))).toBeNull();
    expect(await detectContentFormat(await zip.generateAsync({ type: 'nodebuffer' }))).toBeNull();
    expect(await detectContentFormat(Buffer.from([0x00, 0x01, 0x02, 0x03]))).toBeNull();
    expect(await detectContentFormat(Buffer.from('<kml><Document>'))).toBeNull();
  });
});

describe('name and content must agree', () => {
  it('opens each format under its own name', async () => {
    expect((await openByNameAndContent('port.kml', kmlBytes())).format).toBe('kml');
    expect((await openByNameAndContent('port.kmz', await kmzBytes())).format).toBe('kmz');
    expect((await openByNameAndContent('assets.geojson', geojsonBytes())).format).toBe('geojson');
    expect((await openByNameAndContent('assets.json', geojsonBytes())).format).toBe('geojson');
    expect((await openByNameAndContent('assets.zip', await shapefileZipBytes())).format).toBe('shapefile');
  });

  it('a .kml holding JSON is a mismatch that names what it holds', async () => {
    const err = await refusal('site.kml', geojsonBytes());
    expect(err.problem).toBe('format_mismatch');
    expect(err.message).toBe(
      'The name "site.kml" promises a KML document, but the content is GeoJSON (name it .geojson)',
    );
  });

  it.each([
    ['site.geojson', () => kmlBytes(), /promises GeoJSON, but the content is a KML document \(name it \.kml\)/],
    ['site.zip', () => kmzBytes(), /promises a zipped shapefile, but the content is a KMZ archive \(name it \.kmz\)/],
    [
      'site.kmz',
      () => shapefileZipBytes(),
      /promises a KMZ archive, but the content is a zipped shapefile \(name it \.zip\)/,
    ],
    ['site.kml', () => Buffer.from(GPX), /but the content is XML whose root element is <gpx>, not <kml>/],
    ['site.geojson', () => geojsonBytes({ rows: [] }), /but the content is JSON that is not GeoJSON/],
    [
      'site.kmz',
      () => new JSZip().file('a.txt', 'x').generateAsync({ type: 'nodebuffer' }),
      /holding neither a \.kml nor a \.shp/,
    ],
  ])('%s holding something else is a mismatch', async (name, make, message) => {
    const err = await refusal(name, await make());
    expect(err.problem).toBe('format_mismatch');
    expect(err.message).toMatch(message);
  });

  it('a zip holding both a .kml and a shapefile is read as its name says', async () => {
    const zip = await JSZip.loadAsync(await shapefileZipBytes());
    zip.file('doc.kml', PORT_KML);
    const both = await zip.generateAsync({ type: 'nodebuffer' });
    expect((await openByNameAndContent('both.zip', both)).format).toBe('shapefile');
    expect((await openByNameAndContent('both.kmz', both)).format).toBe('kmz');
  });

  it.each([
    ['site.kml', Buffer.alloc(0), 'The file is not readable as a KML document: it is empty'],
    [
      'site.kml',
      Buffer.from('\x00\x01garbage'),
      'The file is not readable as a KML document: it is neither XML, JSON nor a zip archive',
    ],
    [
      'site.kml',
      Buffer.from('<kml><Document>'),
      'The file is not readable as a KML document: the XML does not parse (unclosed xml tag(s): kml, Document)',
    ],
    [
      'site.geojson',
      Buffer.from('{"type": "FeatureCollection", '),
      /^The file is not readable as GeoJSON: the JSON does not parse/,
    ],
  ])('%s with unreadable content is unreadable', async (name, data, message) => {
    const err = await refusal(name, data);
    expect(err.problem).toBe('unreadable_file');
    if (typeof message === 'string') expect(err.message).toBe(message);
    else expect(err.message).toMatch(message);
  });

  it('a truncated zip is unreadable', async () => {
    const kmz = await kmzBytes();
    const err = await refusal('site.kmz', kmz.subarray(0, kmz.length - 30));
    expect(err.problem).toBe('unreadable_file');
    expect(err.message).toMatch(/^The file is not readable as a KMZ archive: the zip archive cannot be read/);
  });

  it('GeoJSON nested deeper than 32 levels is unreadable, read before it is parsed; 32 levels open', async () => {
    for (const levels of [200_000, 31]) {
      const err = await refusal('site.geojson', deepPropertiesGeojsonBytes(levels));
      expect(err.problem).toBe('unreadable_file');
      expect(err.message).toBe('The file is not readable as GeoJSON: the JSON is nested deeper than 32 levels');
    }
    // The feature, its properties and 30 arrays: 32 levels.
    const opened = await openByNameAndContent('site.geojson', deepPropertiesGeojsonBytes(30));
    expect(opened.format).toBe('geojson');
    expect(await detectContentFormat(deepPropertiesGeojsonBytes(200_000))).toBeNull();
  });

  it('a name we do not take is refused before the content is looked at', async () => {
    const err = await refusal('site.gpx', Buffer.from(GPX));
    expect(err.problem).toBe('file_type');
    expect(err.message).toBe(
      'The file name must end in .kml, .kmz, .geojson, .json, .zip (a .zip being a zipped shapefile); got "site.gpx"',
    );
  });
});
