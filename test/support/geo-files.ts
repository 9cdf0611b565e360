/**
 * Map files for the infrastructure tests, made here with libraries (KML as text, KMZ with jszip,
 * zipped shapefiles with @mapbox/shp-write) rather than checked in as opaque blobs.
 */
import { readFileSync } from 'node:fs';
import shpwrite from '@mapbox/shp-write';
import type { FeatureCollection } from 'geojson';
import JSZip from 'jszip';
import { baseUrl, randomClientIp, type ApiResponse } from './api.js';

/** A port: a fence line and a yard polygon, each with ExtendedData, plus a placemark without geometry. */
export const PORT_KML = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2">
  <Document>
    <name>North Harbour</name>
    <Folder>
      <name>Perimeter</name>
      <Placemark>
        <name>Quay fence</name>
        <description>Outer fence along the quay</description>
        <ExtendedData>
          <Data name="owner"><value>Port Authority</value></Data>
          <Data name="height_m"><value>3.5</value></Data>
        </ExtendedData>
        <LineString>
          <coordinates>10.700,59.900,0 10.705,59.902,0 10.710,59.901,0</coordinates>
        </LineString>
      </Placemark>
      <Placemark>
        <name>Container yard</name>
        <ExtendedData>
          <Data name="security_level"><value>restricted</value></Data>
        </ExtendedData>
        <Polygon>
          <outerBoundaryIs>
            <LinearRing>
              <coordinates>10.701,59.903 10.712,59.903 10.712,59.910 10.701,59.910 10.701,59.903</coordinates>
            </LinearRing>
          </outerBoundaryIs>
        </Polygon>
      </Placemark>
      <Placemark>
        <name>A note without a place</name>
      </Placemark>
    </Folder>
  </Document>
</kml>
`;

/** What PORT_KML holds, as the API reports it. */
export const PORT_KML_SUMMARY = {
  feature_count: 2,
  geometry_types: ['LineString', 'Polygon'],
  bbox: [10.7, 59.9, 10.712, 59.91],
};

export const kmlBytes = (text = PORT_KML) => Buffer.from(text, 'utf8');

/** A KMZ: doc.kml (and an image, as KMZs carry) deflated in a zip. */
export async function kmzBytes(text = PORT_KML): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('doc.kml', text);
  zip.file('files/legend.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** A gate, a cable and a berth: one of each basic geometry type, with properties. */
export const ASSETS_GEOJSON: FeatureCollection = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { name: 'Gate 4', kind: 'gate' },
      geometry: { type: 'Point', coordinates: [4.4, 51.9] },
    },
    {
      type: 'Feature',
      properties: { name: 'Power cable', kind: 'cable' },
      geometry: {
        type: 'LineString',
        coordinates: [
          [4.4, 51.9],
          [4.45, 51.93],
          [4.5, 51.95],
        ],
      },
    },
    {
      type: 'Feature',
      properties: { name: 'Berth 7', kind: 'berth' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [4.41, 51.91],
            [4.48, 51.91],
            [4.48, 51.96],
            [4.41, 51.96],
            [4.41, 51.91],
          ],
        ],
      },
    },
  ],
};

export const ASSETS_SUMMARY = {
  feature_count: 3,
  geometry_types: ['LineString', 'Point', 'Polygon'],
  bbox: [4.4, 51.9, 4.5, 51.96],
};

export const geojsonBytes = (value: unknown = ASSETS_GEOJSON) => Buffer.from(JSON.stringify(value), 'utf8');

/** ASSETS_GEOJSON as a zipped shapefile: one .shp/.shx/.dbf/.prj layer per geometry type. */
export async function shapefileZipBytes(collection: FeatureCollection = ASSETS_GEOJSON): Promise<Buffer> {
  return shpwrite.zip<'nodebuffer'>(collection, { outputType: 'nodebuffer', compression: 'DEFLATE' });
}

/**
 * A real GeoJSON sample: 20 of the 244 earthquakes of USGS's feed of a day, whole, as published
 * (test/fixtures/feeds/usgs-quakes/SOURCES.md): points with 26 properties each.
 */
export function usgsQuakes(): FeatureCollection {
  const path = new URL('../fixtures/feeds/usgs-quakes/all_day.2022-09-29.trimmed.geojson', import.meta.url);
  return JSON.parse(readFileSync(path, 'utf8')) as FeatureCollection;
}

/**
 * The USGS sample's features over and over (each copy with an id of its own), one per line as
 * USGS writes them, to at least `bytes` of GeoJSON: a day's feed grown to a large file.
 */
export function largeQuakesGeojsonBytes(bytes: number): Buffer {
  const sample = usgsQuakes().features;
  const lines: string[] = [];
  let size = 64;
  for (let i = 0; size < bytes; i++) {
    const feature = sample[i % sample.length]!;
    const line = JSON.stringify({ ...feature, id: `${String(feature.id)}-${Math.floor(i / sample.length)}` });
    lines.push(line);
    size += line.length + 2;
  }
  return Buffer.from(`{"type":"FeatureCollection","features":[\n${lines.join(',\n')}\n]}\n`, 'utf8');
}

/**
 * A zipped shapefile whose layers hold each record of `zipped` (a zipped shapefile, e.g. from
 * shapefileZipBytes) `times` over: the .shp and .dbf records repeated as they are, renumbered,
 * with the headers' lengths and counts and the .shx index written to match. Makes size out of a
 * real sample in a moment, where shp-write takes 40 s for 100,000 records.
 */
export async function repeatShapefileRecords(zipped: Uint8Array, times: number): Promise<Buffer> {
  const zip = await JSZip.loadAsync(zipped);
  const out = new JSZip();
  for (const entry of Object.values(zip.files)) {
    if (entry.dir) continue;
    const data = Buffer.from(await entry.async('nodebuffer'));
    const extension = entry.name.slice(-4).toLowerCase();
    if (extension === '.shp') {
      const [shp, shx] = repeatShp(data, times);
      out.file(entry.name, shp);
      out.file(entry.name.slice(0, -4) + (entry.name.endsWith('.SHP') ? '.SHX' : '.shx'), shx);
    } else if (extension === '.dbf') out.file(entry.name, repeatDbf(data, times));
    else if (extension !== '.shx') out.file(entry.name, data);
  }
  return out.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** A .shp's records `times` over, and the .shx that indexes them (both: a 100-byte header, lengths in 16-bit words). */
function repeatShp(shp: Buffer, times: number): [Buffer, Buffer] {
  const records: Buffer[] = [];
  for (let at = 100; at < shp.length;) {
    const length = 8 + shp.readInt32BE(at + 4) * 2;
    records.push(shp.subarray(at, at + length));
    at += length;
  }
  const count = records.length * times;
  const body = Buffer.concat(Array.from({ length: times }, () => Buffer.concat(records)));
  const index = Buffer.alloc(count * 8);
  for (let i = 0, at = 0; i < count; i++) {
    body.writeInt32BE(i + 1, at);
    index.writeInt32BE((100 + at) / 2, i * 8);
    index.writeInt32BE(body.readInt32BE(at + 4), i * 8 + 4);
    at += 8 + body.readInt32BE(at + 4) * 2;
  }
  const header = (length: number) => {
    const copy = Buffer.from(shp.subarray(0, 100));
    copy.writeInt32BE(length / 2, 24);
    return copy;
  };
  return [Buffer.concat([header(100 + body.length), body]), Buffer.concat([header(100 + index.length), index])];
}

/** A .dbf's records `times` over (a header with the record count, fixed-length records, an end mark). */
function repeatDbf(dbf: Buffer, times: number): Buffer {
  const count = dbf.readUInt32LE(4);
  const headerLength = dbf.readUInt16LE(8);
  const recordLength = dbf.readUInt16LE(10);
  const records = dbf.subarray(headerLength, headerLength + count * recordLength);
  const header = Buffer.from(dbf.subarray(0, headerLength));
  header.writeUInt32LE(count * times, 4);
  return Buffer.concat([header, ...Array.from({ length: times }, () => records), Buffer.from([0x1a])]);
}

/** A GeoJSON FeatureCollection of about `bytes` bytes: many short cables with properties. */
export function largeGeojsonBytes(bytes: number): Buffer {
  const features: string[] = [];
  let size = 64;
  for (let i = 0; size < bytes - 1024; i++) {
    const coordinates = Array.from({ length: 20 }, (_, k) => [
      Number((4 + (i % 1000) * 1e-4 + k * 1e-5).toFixed(6)),
      Number((51 + Math.floor(i / 1000) * 1e-3 + k * 1e-5).toFixed(6)),
    ]);
    const feature = JSON.stringify({
      type: 'Feature',
      properties: { name: `Cable ${i}`, owner: 'Port' },
      geometry: { type: 'LineString', coordinates },
    });
    features.push(feature);
    size += feature.length + 1;
  }
  return Buffer.from(`{"type":"FeatureCollection","features":[${features.join(',')}]}`, 'utf8');
}

/**
 * A valid GeoJSON point feature whose `properties` hold a value nested `levels` arrays deep (built
 * as text: JSON.stringify would overflow on it).
 */
export function deepPropertiesGeojsonBytes(levels: number): Buffer {
  const deep = '['.repeat(levels) + ']'.repeat(levels);
  return Buffer.from(
    `{"type":"Feature","properties":{"name":"Gate","deep":${deep}},"geometry":{"type":"Point","coordinates":[4.4,51.9]}}`,
    'utf8',
  );
}

/** A KML document of about `bytes` bytes: many placemarked cables with ExtendedData. */
export function largeKmlBytes(bytes: number): Buffer {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>'];
  let size = parts[0]!.length + 20;
  for (let i = 0; size < bytes - 1024; i++) {
    const coordinates = Array.from(
      { length: 20 },
      (_, k) => `${(4 + (i % 1000) * 1e-4 + k * 1e-5).toFixed(6)},${(51 + k * 1e-5).toFixed(6)},0`,
    ).join(' ');
    const placemark =
      `<Placemark><name>Cable ${i}</name><ExtendedData><Data name="owner"><value>Port</value></Data></ExtendedData>` +
      `<LineString><coordinates>${coordinates}</coordinates></LineString></Placemark>\n`;
    parts.push(placemark);
    size += placemark.length;
  }
  parts.push('</Document></kml>');
  return Buffer.from(parts.join(''), 'utf8');
}

/**
 * A KML document of `count` point placemarks, each with a name: the most placemarks a megabyte
 * holds (about 97 bytes each), as a survey of poles or posts exports them. 230,000 make 22 MB of
 * KML, which deflates to a KMZ of 1.2 MB (issue 34's file was 20.9 MB in 605 KB).
 */
export function pointsKml(count: number): string {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document>\n'];
  for (let i = 0; i < count; i++) {
    const lon = (10 + (i % 1000) * 1e-3).toFixed(3);
    const lat = (59 + Math.floor(i / 1000) * 1e-3).toFixed(3);
    parts.push(`<Placemark><name>${i}</name><Point><coordinates>${lon},${lat}</coordinates></Point></Placemark>\n`);
  }
  parts.push('</Document></kml>\n');
  return parts.join('');
}

/** The bounding box of pointsKml(count). */
export function pointsKmlBbox(count: number): number[] {
  const rows = Math.ceil(count / 1000);
  return [10, 59, Math.min(count, 1000) === 1000 ? 10.999 : 10 + (count - 1) * 1e-3, 59 + (rows - 1) * 1e-3].map((v) =>
    Number(v.toFixed(3)),
  );
}

/** Uploads a map file to an environment as a browser would (multipart), and answers what the API answered. */
export async function uploadMapFile(
  token: string,
  environmentId: string,
  filename: string,
  data: Uint8Array,
): Promise<Pick<ApiResponse, 'status' | 'body'>> {
  const form = new FormData();
  form.append('file', new Blob([data]), filename);
  const url = new URL(`/api/v1/environments/${environmentId}/infrastructure/upload`, baseUrl());
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': randomClientIp() },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as unknown };
}
