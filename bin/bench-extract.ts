/**
 * Extraction benchmark (a script, not a test): how long extracting large infrastructure files
 * takes and how much memory it peaks at, with no services, each case in a fresh process (its peak
 * resident memory, VmHWM, is its own). Two sets:
 *   request     each format at what a request extracts (shared/domain/infrastructure/budget.ts),
 *               in its costliest cases: what the bounds were chosen from;
 *   background  the worker's streaming readers (background.ts) on files near the presigned
 *               upload's 50 MiB, up to storing's JSON text: that their memory stays bounded.
 * Files are made as the tests make them (test/support/geo-files.ts), the USGS sample among them.
 *
 *   npx tsx bin/bench-extract.ts               # both sets
 *   npx tsx bin/bench-extract.ts request
 *   BENCH_MB=16 npx tsx bin/bench-extract.ts background
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { FeatureCollection } from 'geojson';
import { collectionBytes, extractGeometries, extractStreamed } from '../shared/domain/infrastructure/index.js';
import {
  MAX_SYNC_GEOJSON_BYTES,
  MAX_SYNC_SHAPEFILE_BYTES,
  MAX_SYNC_SHAPEFILE_RECORDS,
} from '../shared/schemas/infrastructure.js';
import {
  kmzBytes,
  largeGeojsonBytes,
  largeQuakesGeojsonBytes,
  pointsKml,
  repeatShapefileRecords,
  shapefileZipBytes,
  usgsQuakes,
} from '../test/support/geo-files.js';

const MB = Number(process.env.BENCH_MB ?? 48);

/** `count` points of one number each: the most shapefile records in a megabyte. */
const posts = (count: number): FeatureCollection => ({
  type: 'FeatureCollection',
  features: Array.from({ length: count }, (_, i) => ({
    type: 'Feature',
    properties: { post: i },
    geometry: { type: 'Point', coordinates: [10 + (i % 1000) * 1e-3, 59 + Math.floor(i / 1000) * 1e-3] },
  })),
});

/** GeoJSON points with a name, as pointsKml makes placemarks, to about `bytes`. */
function pointsGeojsonBytes(bytes: number): Buffer {
  const parts: string[] = [];
  let size = 40;
  for (let i = 0; size < bytes - 200; i++) {
    const lon = (10 + (i % 1000) * 1e-3).toFixed(3);
    const lat = (59 + Math.floor(i / 1000) * 1e-3).toFixed(3);
    const feature = `{"type":"Feature","properties":{"name":"${i}"},"geometry":{"type":"Point","coordinates":[${lon},${lat}]}}`;
    parts.push(feature);
    size += feature.length + 1;
  }
  return Buffer.from(`{"type":"FeatureCollection","features":[${parts.join(',')}]}`);
}

/** Records of `sample` as a zipped shapefile, repeated to `count`. */
async function shapefileOf(sample: FeatureCollection, count: number): Promise<Buffer> {
  return repeatShapefileRecords(await shapefileZipBytes(sample), Math.floor(count / sample.features.length));
}

/** A zipped shapefile of lines (20 vertices each) repeated to about `bytes` of .shp. */
async function linesShapefile(bytes: number): Promise<Buffer> {
  const sample = JSON.parse(largeGeojsonBytes(100_000).toString()) as FeatureCollection;
  // shp-write writes the sample's lines as one record of 4,100 vertices: 66 KB of .shp.
  return repeatShapefileRecords(await shapefileZipBytes(sample), Math.floor(bytes / 66_300));
}

const recordsPerMb = Math.floor(MAX_SYNC_SHAPEFILE_BYTES / 3800);
const CASES: Record<string, { set: 'request' | 'background'; make: () => Promise<[string, Buffer]> }> = {
  'KML, 43,000 points (4 MiB)': { set: 'request', make: async () => ['poles.kml', Buffer.from(pointsKml(43_000))] },
  'GeoJSON, lines of 20 vertices': {
    set: 'request',
    make: async () => ['cables.geojson', largeGeojsonBytes(MAX_SYNC_GEOJSON_BYTES)],
  },
  'GeoJSON, named points': {
    set: 'request',
    make: async () => ['poles.geojson', pointsGeojsonBytes(MAX_SYNC_GEOJSON_BYTES)],
  },
  'GeoJSON, the USGS sample grown': {
    set: 'request',
    make: async () => ['quakes.geojson', largeQuakesGeojsonBytes(MAX_SYNC_GEOJSON_BYTES - 4096)],
  },
  'shapefile, lines (8 MiB of .shp)': {
    set: 'request',
    make: async () => ['cables.zip', await linesShapefile(MAX_SYNC_SHAPEFILE_BYTES - 500_000)],
  },
  'shapefile, 50,000 points with a number': {
    set: 'request',
    make: async () => ['posts.zip', await shapefileOf(posts(1000), MAX_SYNC_SHAPEFILE_RECORDS)],
  },
  'shapefile, USGS records (8 MiB of .dbf)': {
    set: 'request',
    make: async () => ['quakes.zip', await shapefileOf(usgsQuakes(), recordsPerMb - 20)],
  },
  [`GeoJSON, the USGS sample grown to ${MB} MiB`]: {
    set: 'background',
    make: async () => ['quakes.geojson', largeQuakesGeojsonBytes(MB * 1024 * 1024)],
  },
  'shapefile, 30,000 USGS records (113 MB of .dbf)': {
    set: 'background',
    make: async () => ['quakes.zip', await shapefileOf(usgsQuakes(), 30_000)],
  },
  'shapefile, 400,000 points with a number': {
    set: 'background',
    make: async () => ['posts.zip', await shapefileOf(posts(1000), 400_000)],
  },
  'KMZ, 230,000 points (22 MB of KML)': {
    set: 'background',
    make: async () => ['poles.kmz', await kmzBytes(pointsKml(230_000))],
  },
};

const peakMb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;

const only = process.argv[2];
const child = process.argv[3];
if (child) {
  const { set, make } = CASES[child]!;
  const [filename, data] = await make();
  const before = peakMb();
  const started = performance.now();
  let delay = 0;
  let last = performance.now();
  const watch = setInterval(() => {
    const now = performance.now();
    delay = Math.max(delay, now - last - 10);
    last = now;
  }, 10);
  try {
    const extraction =
      set === 'request' ? await extractGeometries(filename, data) : await extractStreamed(filename, data);
    // What storing writes: the collection's JSON (storage.ts).
    const text = await collectionBytes(extraction.features);
    const ms = performance.now() - started;
    console.log(
      `${child}: ${(data.length / 1048576).toFixed(1)} MB file, ${extraction.summary.feature_count} features, ` +
        `${(text.length / 1048576).toFixed(1)} MB of JSON, in ${ms.toFixed(0)} ms; peak ${peakMb().toFixed(0)} MB ` +
        `(${before.toFixed(0)} MB with the file made); event loop held at most ${delay.toFixed(0)} ms`,
    );
  } catch (err) {
    console.log(`${child}: refused after ${(performance.now() - started).toFixed(0)} ms: ${(err as Error).message}`);
  } finally {
    clearInterval(watch);
  }
} else {
  for (const [name, { set }] of Object.entries(CASES)) {
    if (only && only !== set) continue;
    const run = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, set, name], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: process.env,
    });
    if (run.status !== 0) console.log(`${name}: the case stopped (${run.status})`);
  }
}
