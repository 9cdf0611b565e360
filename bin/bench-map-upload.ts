/**
 * Large map upload benchmark (a script, not a test), against `npm start` as a user runs it: a
 * large map file of BENCH_FORMAT is sent
 *   kmz (default)  BENCH_PLACEMARKS point placemarks (default 230,000: 22 MB of KML in a 1.2 MB
 *                  KMZ, issue 34's file);
 *   geojson        the USGS sample of a day's earthquakes (test/fixtures) grown to BENCH_MB
 *                  (default 48, near the presigned upload's 50 MiB);
 *   shapefile      the USGS sample as a zipped shapefile, its records repeated to BENCH_RECORDS
 *                  (default 30,000: 113 MB of .dbf in a zip of about 3.5 MB);
 * and each is sent
 *   1. directly (multipart upload): the time to its answer (413, naming upload-url);
 *   2. through upload-url, PUT and extract: the time to the extract's answer (202), then to `ready`
 *      on the file's status, polled every second, with the feature count.
 * Throughout, GET /health is called every 250 ms (its slowest answer is printed), and the local
 * server's peak resident memory is read from /proc (VmHWM of its process: DynamoDB Local and the
 * other stand-ins run in processes of their own).
 *
 *   npx tsx bin/bench-map-upload.ts
 *   BENCH_PLACEMARKS=60000 npx tsx bin/bench-map-upload.ts
 *   BENCH_FORMAT=geojson npx tsx bin/bench-map-upload.ts
 *   BENCH_FORMAT=shapefile BENCH_RECORDS=30000 npx tsx bin/bench-map-upload.ts
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { confirmationLinkMailed } from './local-mail.js';
import {
  kmzBytes,
  largeQuakesGeojsonBytes,
  pointsKml,
  repeatShapefileRecords,
  shapefileZipBytes,
  usgsQuakes,
} from '../test/support/geo-files.js';

const FORMAT = process.env.BENCH_FORMAT ?? 'kmz';
const PLACEMARKS = Number(process.env.BENCH_PLACEMARKS ?? 230_000);
const MB = Number(process.env.BENCH_MB ?? 48);
const RECORDS = Number(process.env.BENCH_RECORDS ?? 30_000);

/** The file to send, its name, and what it is. */
async function benchFile(): Promise<{ filename: string; data: Buffer; about: string }> {
  if (FORMAT === 'geojson') {
    const data = largeQuakesGeojsonBytes(MB * 1024 * 1024);
    return { filename: 'quakes.geojson', data, about: `${(data.length / 1e6).toFixed(1)} MB of GeoJSON` };
  }
  if (FORMAT === 'shapefile') {
    const sample = usgsQuakes();
    const data = await repeatShapefileRecords(
      await shapefileZipBytes(sample),
      Math.ceil(RECORDS / sample.features.length),
    );
    return { filename: 'quakes.zip', data, about: `${RECORDS} records in a ${(data.length / 1e6).toFixed(1)} MB zip` };
  }
  const kml = pointsKml(PLACEMARKS);
  const data = await kmzBytes(kml);
  const about = `${PLACEMARKS} placemarks: ${(Buffer.byteLength(kml) / 1e6).toFixed(1)} MB of KML in a ${(data.length / 1e3).toFixed(0)} KB KMZ`;
  return { filename: 'poles.kmz', data, about };
}
const PORT = Number(process.env.BENCH_PORT ?? 3987);
const base = `http://127.0.0.1:${PORT}`;
const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-map-'));

const server = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
  env: { ...process.env, PORT: String(PORT), GATEHOUSE_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise<void>((resolve, reject) => {
  server.stdout.on('data', (chunk: Buffer) => {
    if (chunk.toString().includes('listening on')) resolve();
  });
  server.on('exit', (code) => reject(new Error(`the local server stopped (${code})`)));
});

const memoryMb = (field: 'VmRSS' | 'VmHWM') => {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'));
  return Math.round(Number(match?.[1] ?? 0) / 1024);
};

interface FileStatus {
  status: string;
  reason: string | null;
  file: { feature_count: number } | null;
}

async function api<T>(
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

// /health every 250 ms, one at a time, for the whole run.
let slowestHealthMs = 0;
let healthChecks = 0;
let phase = 'start';
const slowHealth: string[] = [];
let watching = true;
const watcher = (async () => {
  while (watching) {
    const started = performance.now();
    await fetch(`${base}/health`).then((r) => r.arrayBuffer());
    const ms = performance.now() - started;
    slowestHealthMs = Math.max(slowestHealthMs, ms);
    if (ms > 1000) slowHealth.push(`${ms.toFixed(0)} ms during ${phase} at ${new Date().toISOString()}`);
    healthChecks++;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
})();

try {
  const rssAtStart = memoryMb('VmRSS');
  const tag = Math.random().toString(36).slice(2, 10);
  const email = `bench-${tag}@maps.example`;
  const password = `Bench-${tag}-Pass1`;
  await api<unknown>('POST', '/api/v1/portal/register', undefined, {
    email,
    password,
    organization_name: `Maps ${tag}`,
  });
  // Confirmed with the link the local mail server kept, as the user would.
  const link = await confirmationLinkMailed(join(dataDir, 'mail'), email);
  await fetch(new URL(link, base), { method: 'POST' });
  const token = (await api<{ access_token: string }>('POST', '/api/v1/portal/login', undefined, { email, password }))
    .body.access_token;
  const env = await api<{ environment_id: string }>('POST', '/api/v1/environments', token, {
    name: 'Grid',
    type: 'port',
  });
  if (env.status !== 201) throw new Error(`the environment was not created: ${env.status}`);
  const files = `/api/v1/environments/${env.body.environment_id}/infrastructure`;

  const { filename, data, about } = await benchFile();
  console.log(`${about}; server at ${rssAtStart} MB`);

  phase = 'the direct upload';
  let started = performance.now();
  const form = new FormData();
  form.append('file', new Blob([data]), filename);
  const direct = await fetch(`${base}${files}/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const directBody = (await direct.json()) as { detail?: string; feature_count?: number };
  console.log(
    `direct upload: ${direct.status} in ${(performance.now() - started).toFixed(0)} ms` +
      (direct.status === 413 ? ` (${directBody.detail?.slice(0, 90)}...)` : ''),
  );

  const ticket = await api<{ file_id: string; upload_url: string; headers: Record<string, string> }>(
    'POST',
    `${files}/upload-url`,
    token,
    { filename, size_bytes: data.length },
  );
  const put = await fetch(ticket.body.upload_url, { method: 'PUT', headers: ticket.body.headers, body: data });
  if (put.status !== 200) throw new Error(`PUT answered ${put.status}`);
  phase = 'the extract request';
  started = performance.now();
  const extract = await api<FileStatus>('POST', `${files}/${ticket.body.file_id}/extract`, token);
  console.log(`extract: ${extract.status} in ${(performance.now() - started).toFixed(0)} ms`);
  phase = 'the background extraction';
  let status = extract.body;
  while (extract.status === 202 && status.status === 'processing') {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    status = (await api<FileStatus>('GET', `${files}/${ticket.body.file_id}/status`, token)).body;
  }
  console.log(
    `background extraction: ${status.status} after ${((performance.now() - started) / 1000).toFixed(1)} s` +
      (status.file ? `, ${status.file.feature_count} features` : status.reason ? ` (${status.reason})` : ''),
  );
  console.log(
    `server memory: peak ${memoryMb('VmHWM')} MB (started at ${rssAtStart} MB); slowest /health ${slowestHealthMs.toFixed(0)} ms of ${healthChecks}`,
  );
  if (slowHealth.length > 0) console.log(`/health over 1 s: ${slowHealth.join('; ')}`);
} finally {
  watching = false;
  await watcher.catch(() => undefined);
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
