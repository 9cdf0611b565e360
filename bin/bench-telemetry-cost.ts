/**
 * DynamoDB calls of fibre-sensor telemetry (a script, not a test; docs/fibre-telemetry.md): runs
 * the local stack with the metering proxy in front of DynamoDB Local (shared/local/dynamodb-meter.ts),
 * as bin/bench-request-cost.ts does, and prints the calls by operation of a batch without
 * detections, a batch with one, a retried batch, a batch continuing the disturbance of the one before
 * and a window read.
 *
 *   npx tsx bin/bench-telemetry-cost.ts
 */
import { showTally as show, startMeteredStack } from './metered-stack.js';

const stack = await startMeteredStack('telemetry-cost');
const { api, tallyOf } = stack;

try {
  const token = await stack.signUp('Telemetry');
  const env = await api<{ environment_id: string }>('POST', '/api/v1/environments', token, {
    name: 'Landing',
    type: 'port',
  });
  const form = new FormData();
  const kml = `<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>Cable</name><LineString><coordinates>1.4,51.1,0 1.6,51.15,0 1.8,51.2,0</coordinates></LineString></Placemark></Document></kml>`;
  form.append('file', new Blob([kml]), 'cable.kml');
  const up = await fetch(new URL(`/api/v1/environments/${env.environment_id}/infrastructure/upload`, stack.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const file = (await up.json()) as { file_id: string };
  const sensor = await api<{ sensor_id: string }>('POST', '/api/v1/sensors', token, {
    environment_id: env.environment_id,
    name: 'DAS',
    type: 'fibre_optic',
    location: { lat: 51.1, lon: 1.4 },
    fibre: { line_id: `${file.file_id}:0`, start_distance_m: 0, channel_spacing_m: 10, threshold: 5 },
  });
  const path = `/api/v1/sensors/${sensor.sensor_id}/telemetry`;
  const base = Date.now() - 30 * 60_000;
  // Channel 500 over the threshold in frame `hotFrame` (none: a quiet batch).
  const frames = (start: number, hot: boolean, hotFrame = 3) =>
    Array.from({ length: 10 }, (_, i) => ({
      time: new Date(start + i * 1000).toISOString(),
      channel_start: 0,
      values: Array.from({ length: 1000 }, (_, c) => (hot && i === hotFrame && c === 500 ? 9 : 1)),
    }));
  // Warm the function containers' caches (zones, definitions, the closed minutes) as a running unit would have.
  await api('POST', path, token, { batch_id: 'warm', kind: 'das', frames: frames(base - 60_000, true) });
  show(
    'batch of 10 frames x 1,000 channels, no detection',
    await tallyOf(() => api('POST', path, token, { batch_id: 'quiet', kind: 'das', frames: frames(base, false) })),
  );
  show(
    'the same, one detection',
    await tallyOf(() =>
      api('POST', path, token, { batch_id: 'hot', kind: 'das', frames: frames(base + 20_000, true) }),
    ),
  );
  show(
    'a retried batch',
    await tallyOf(() =>
      api('POST', path, token, { batch_id: 'hot', kind: 'das', frames: frames(base + 20_000, true) }),
    ),
  );
  // Hot 4 s after the one before's detection, on its channel: it continues that event.
  show(
    'a batch continuing the disturbance',
    await tallyOf(() =>
      api('POST', path, token, { batch_id: 'hot-2', kind: 'das', frames: frames(base + 27_000, true, 0) }),
    ),
  );
  show(
    'a window read (3 batches)',
    await tallyOf(() =>
      api(
        'GET',
        `${path}?from=${new Date(base - 60_000).toISOString()}&to=${new Date(base + 60_000).toISOString()}`,
        token,
      ),
    ),
  );
} finally {
  await stack.stop();
}
