/**
 * Map files for the infrastructure tests, made here with libraries (KML as text, KMZ with jszip,
 * zipped shapefiles with @mapbox/shp-write) rather than checked in as opaque blobs.
 */
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
