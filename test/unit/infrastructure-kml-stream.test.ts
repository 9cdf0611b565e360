/**
 * The streaming KML reader of the background extraction: the same features as the whole
 * document converted at once, however the text is cut into chunks, and its limits counted while
 * reading.
 */
import { DOMParser } from '@xmldom/xmldom';
import { kml } from '@tmcw/togeojson';
import { describe, expect, it } from 'vitest';
import { GeoFileError } from '../../shared/domain/infrastructure/geo-file-error.js';
import { streamKmlFeatures } from '../../shared/domain/infrastructure/kml-stream.js';
import { ReadLimitError, type ReadLimits } from '../../shared/domain/infrastructure/read-limits.js';
import { PORT_KML, pointsKml } from '../support/geo-files.js';

const NO_LIMITS: ReadLimits = { maxBytes: 1e9, maxFeatures: 1e9, maxVertices: 1e9 };

async function* chunksOf(text: string | Buffer, size: number): AsyncIterable<Buffer> {
  const data = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

const atOnce = (text: string) => kml(new DOMParser().parseFromString(text, 'text/xml')).features;

async function failure(text: string, limits = NO_LIMITS): Promise<Error> {
  try {
    await streamKmlFeatures(chunksOf(text, 1000), limits, 'doc.kml');
  } catch (err) {
    return err as Error;
  }
  throw new Error('it was read');
}

/** PORT_KML with a shared style, a schema, CDATA, an entity, a ground overlay and a multi-geometry. */
const RICH_KML = PORT_KML.replace(
  '<Document>',
  `<Document xmlns:gx="http://www.google.com/kml/ext/2.2">
    <Style id="fence"><LineStyle><color>ff0000ff</color><width>2</width></LineStyle></Style>
    <Schema name="kind" id="kind"><SimpleField type="int" name="level"/></Schema>
    <GroundOverlay><name>Chart</name><Icon><href>chart.png</href></Icon>
      <LatLonBox><north>59.91</north><south>59.90</south><east>10.72</east><west>10.70</west></LatLonBox></GroundOverlay>`,
)
  .replace('<name>Quay fence</name>', '<name>Quay &amp; fence <![CDATA[<north>]]></name><styleUrl>#fence</styleUrl>')
  .replace(
    '<name>A note without a place</name>',
    `<name>Gates</name><ExtendedData><SchemaData schemaUrl="#kind"><SimpleData name="level">3</SimpleData></SchemaData></ExtendedData>
     <MultiGeometry><Point><coordinates>10.70,59.90</coordinates></Point><Point><coordinates>10.71,59.91</coordinates></Point></MultiGeometry>`,
  );

describe('streamKmlFeatures', () => {
  it.each([1, 7, 4096])('gives the features of the whole document, read in chunks of %i bytes', async (size) => {
    const { features, counts } = await streamKmlFeatures(chunksOf(RICH_KML, size), NO_LIMITS, 'doc.kml');
    expect(features).toEqual(atOnce(RICH_KML));
    expect(features[0]!.properties).toMatchObject({ name: 'Quay & fence <north>', stroke: '#ff0000' });
    expect(counts).toEqual({ bytes: Buffer.byteLength(RICH_KML), placemarks: 4, vertices: 10 });
  });

  it('keeps the order of many placemarks across its batches', async () => {
    const text = pointsKml(2500);
    const { features } = await streamKmlFeatures(chunksOf(text, 16 * 1024), NO_LIMITS, 'doc.kml');
    expect(features).toHaveLength(2500);
    expect(features.map((f) => f.properties!.name)).toEqual(Array.from({ length: 2500 }, (_, i) => String(i)));
    expect(features).toEqual(atOnce(text));
  });

  it('decodes the encoding the document declares', async () => {
    const text = PORT_KML.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"').replace('Quay fence', 'Kai-gjerde ø');
    const { features } = await streamKmlFeatures(chunksOf(Buffer.from(text, 'latin1'), 5), NO_LIMITS, 'doc.kml');
    expect(features[0]!.properties!.name).toBe('Kai-gjerde ø');
  });

  it('stops at the first placemark, coordinate or byte past its limits', async () => {
    const text = pointsKml(100);
    const placemarks = await failure(text, { ...NO_LIMITS, maxFeatures: 99 });
    expect(placemarks).toBeInstanceOf(ReadLimitError);
    expect(placemarks).toMatchObject({
      problem: 'too_large',
      message: 'doc.kml holds more than 99 placemarks; at most 99 are read',
    });
    expect((await failure(PORT_KML, { ...NO_LIMITS, maxVertices: 7 })).message).toBe(
      'doc.kml holds more than 7 coordinates; at most 7 are read',
    );
    expect((await failure(text, { ...NO_LIMITS, maxBytes: 5000 })).message).toBe(
      'doc.kml is larger than 5000 bytes; at most that much KML is read',
    );
  });

  it('refuses what is not KML, or not XML', async () => {
    expect(await failure('<gpx><trk/></gpx>')).toMatchObject({
      problem: 'unreadable_file',
      message: 'doc.kml is not a KML document (its root element is <gpx>)',
    });
    const broken = await failure('<kml><Document><Placemark></Document></kml>');
    expect(broken).toBeInstanceOf(GeoFileError);
    expect(broken.message).toMatch(/^doc\.kml does not parse as XML/);
  });
});
