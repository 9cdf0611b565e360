/**
 * Fibre-sensor telemetry end to end: a DAS unit on the Dover cable (uploaded as KML, the line
 * mapped channel by channel), batches of raw frames posted, read back by window, a disturbance
 * over the threshold turned into an event at its point on the cable (matched by the seeded
 * digging definition), a retried batch stored and detected once, the limits, the roles and
 * another tenant.
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import turfDistance from '@turf/distance';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUCKET, s3 } from '../../shared/adapters/s3.js';
import { call, createUser, registerTenant, type RegisteredTenant } from '../support/api.js';
import { CABLE, CABLE_KML } from '../support/ais.js';
import { uploadMapFile } from '../support/geo-files.js';

let org: RegisteredTenant;
let environmentId: string;
let lineId: string;
let sensorId: string;
const FIBRE = { start_distance_m: 1000, channel_spacing_m: 10, threshold: 5 };
const CHANNELS = 200;
const base = Date.now() - 60 * 60_000;

/** `count` frames a second apart from `startMs`, quiet (values 0.5 to 1.5) but for `hot` channels in `hotFrames`. */
function frames(startMs: number, count: number, hot: Record<number, number> = {}, hotFrames: number[] = []) {
  return Array.from({ length: count }, (_, i) => ({
    time: new Date(startMs + i * 1000).toISOString(),
    channel_start: 0,
    values: Array.from({ length: CHANNELS }, (_, c) =>
      hotFrames.includes(i) && hot[c] !== undefined ? hot[c] : Math.round((1 + Math.sin(i * 7 + c) / 2) * 1000) / 1000,
    ),
  }));
}

const post = (body: unknown, token = org.token, sensor = sensorId) =>
  call('POST', `/api/v1/sensors/${sensor}/telemetry`, { token, body });
const read = (query: Record<string, string | number>, token = org.token, sensor = sensorId) =>
  call('GET', `/api/v1/sensors/${sensor}/telemetry`, { token, query });

/** Metres along the cable from its first vertex to a point on it (the point's segment found by the smallest detour). */
function alongCable(p: { lat: number; lon: number }): number {
  const d = (a: number[], b: number[]) => turfDistance(a, b, { units: 'meters' });
  let walked = 0;
  let best = { detour: Infinity, along: 0 };
  for (let i = 1; i < CABLE.length; i++) {
    const a = CABLE[i - 1]!;
    const b = CABLE[i]!;
    const detour = d(a, [p.lon, p.lat]) + d([p.lon, p.lat], b) - d(a, b);
    if (detour < best.detour) best = { detour, along: walked + d(a, [p.lon, p.lat]) };
    walked += d(a, b);
  }
  expect(best.detour, 'the point lies on the cable').toBeLessThan(1);
  return best.along;
}

beforeAll(async () => {
  org = await registerTenant('Fibre');
  environmentId = (
    await call('POST', '/api/v1/environments', { token: org.token, body: { name: 'Dover landing', type: 'port' } })
  ).body.environment_id;
  const upload = await uploadMapFile(org.token, environmentId, 'cables.kml', Buffer.from(CABLE_KML, 'utf8'));
  expect(upload.status).toBe(201);
  const lines = await call('GET', '/api/v1/infrastructure/lines', { token: org.token });
  lineId = lines.body.items.find((l: any) => l.file_id === upload.body.file_id).line_id;
  expect((await call('POST', '/api/v1/threat-libraries/seed', { token: org.token })).status).toBe(200);
  const sensor = await call('POST', '/api/v1/sensors', {
    token: org.token,
    body: {
      environment_id: environmentId,
      name: 'DAS interrogator, landing station',
      type: 'fibre_optic',
      location: { lat: 51.1, lon: 1.4 },
      fibre: { line_id: lineId, ...FIBRE },
    },
  });
  expect(sensor.status, sensor.text).toBe(201);
  sensorId = sensor.body.sensor_id;
}, 60_000);

describe('sensors.create with a fibre mapping', () => {
  it("keeps the mapping of a fibre_optic sensor, and refuses one on another type or without a spacing, and does not find an unknown line (nor another tenant's)", async () => {
    const got = await call('GET', `/api/v1/sensors/${sensorId}`, { token: org.token });
    expect(got.body.fibre).toEqual({ line_id: lineId, ...FIBRE });
    const make = (type: string, fibre: unknown) =>
      call('POST', '/api/v1/sensors', {
        token: org.token,
        body: { environment_id: environmentId, name: 'X', type, location: { lat: 51.1, lon: 1.4 }, fibre },
      });
    const radar = await make('radar', { line_id: lineId, ...FIBRE });
    expect(radar.status).toBe(422);
    expect(radar.body.detail[0].loc).toEqual(['body', 'fibre']);
    const unknownLine = await make('fibre_optic', { ...FIBRE, line_id: `${lineId.split(':')[0]}:7` });
    expect(unknownLine.status).toBe(404);
    expect(unknownLine.body).toEqual({ detail: 'Line not found' });
    expect((await make('fibre_optic', { line_id: lineId, threshold: 5 })).status).toBe(422);
    const calibrated = await make('fibre_optic', {
      line_id: lineId,
      threshold: 5,
      calibration: [
        { channel: 0, distance_m: 0 },
        { channel: 100, distance_m: 1500 },
      ],
    });
    expect(calibrated.status, calibrated.text).toBe(201);
    const backwards = await make('fibre_optic', {
      line_id: lineId,
      threshold: 5,
      calibration: [
        { channel: 100, distance_m: 0 },
        { channel: 10, distance_m: 1500 },
      ],
    });
    expect(backwards.status).toBe(422);
    // Another tenant's line is an unknown one.
    const other = await registerTenant('Other fibre');
    const otherEnv = (
      await call('POST', '/api/v1/environments', { token: other.token, body: { name: 'E', type: 'port' } })
    ).body.environment_id;
    const foreign = await call('POST', '/api/v1/sensors', {
      token: other.token,
      body: {
        environment_id: otherEnv,
        name: 'X',
        type: 'fibre_optic',
        location: { lat: 51.1, lon: 1.4 },
        fibre: { line_id: lineId, ...FIBRE },
      },
    });
    expect(foreign.status, foreign.text).toBe(404);
  });
});

describe('sensors.update with a fibre mapping', () => {
  it('changes the mapping, refuses another type while it is set, and removes it with null', async () => {
    const made = await call('POST', '/api/v1/sensors', {
      token: org.token,
      body: {
        environment_id: environmentId,
        name: 'Spare DAS',
        type: 'fibre_optic',
        location: { lat: 51.1, lon: 1.4 },
        fibre: { line_id: lineId, ...FIBRE },
      },
    });
    const path = `/api/v1/sensors/${made.body.sensor_id}`;
    const changed = await call('PATCH', path, {
      token: org.token,
      body: { fibre: { line_id: lineId, channel_spacing_m: 5, threshold: 20 } },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.fibre).toEqual({ line_id: lineId, start_distance_m: 0, channel_spacing_m: 5, threshold: 20 });
    const retyped = await call('PATCH', path, { token: org.token, body: { type: 'radar' } });
    expect(retyped.status).toBe(422);
    const cleared = await call('PATCH', path, { token: org.token, body: { fibre: null, type: 'radar' } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ type: 'radar', fibre: null });
  });
});

describe('sensors.telemetryIngest', () => {
  // Frames 3 to 5 hot on channels 120 to 122 (peak 12 at channel 121): one disturbance.
  const batch = {
    batch_id: 'unit7-000001',
    kind: 'das',
    classification: 'digging',
    frames: frames(base, 10, { 120: 8, 121: 12, 122: 9 }, [3, 4, 5]),
  };
  let first: any;

  beforeAll(async () => {
    first = await post(batch);
    expect(first.status, first.text).toBe(201);
  });

  it('stores the batch and turns the run over the threshold into one event at its point on the cable', async () => {
    expect(first.body).toMatchObject({
      batch_id: 'unit7-000001',
      kind: 'das',
      frames: 10,
      channel_from: 0,
      channel_to: CHANNELS - 1,
      max_value: 12,
      duplicate: false,
      detections: 1,
    });
    expect(first.body.start).toBe(new Date(base).toISOString());
    expect(first.body.end).toBe(new Date(base + 9000).toISOString());
    const event = (await call('GET', `/api/v1/events/${first.body.event_ids[0]}`, { token: org.token })).body;
    expect(event).toMatchObject({
      type: 'fibre.disturbance',
      sensor_id: sensorId,
      environment_id: environmentId,
      source: 'sensor',
      occurred_at: new Date(base + 3000).toISOString(),
    });
    expect(event.payload).toMatchObject({
      kind: 'das',
      channel: 121,
      channel_from: 120,
      channel_to: 122,
      distance_m: 2210,
      peak: 12,
      frames: 3,
      on_line: true,
      line_id: lineId,
      classification: 'digging',
    });
    // Channel 121 lies 1,000 + 121 × 10 m along the cable.
    expect(alongCable(event.location)).toBeCloseTo(2210, -1);
    expect(Math.abs(alongCable(event.location) - 2210)).toBeLessThan(2);
    expect(event.matched_signatures.map((m: any) => m.name)).toContain('Digging signature on a fibre sensor');
    expect(event.threat_score).toBeGreaterThan(0);
    const sensor = await call('GET', `/api/v1/sensors/${sensorId}`, { token: org.token });
    // The frames say when the unit was last heard.
    expect(sensor.body.last_seen_at).toBe(new Date(base + 9000).toISOString());
  });

  it('stores and detects a retried batch once', async () => {
    const again = await post(batch);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ duplicate: true, detections: 1, event_ids: first.body.event_ids });
    const events = await call('GET', '/api/v1/events', { token: org.token, query: { type: 'fibre.disturbance' } });
    expect(events.body.filter((e: any) => e.payload.batch_id === 'unit7-000001')).toHaveLength(1);
    const objects = await s3.send(
      new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `telemetry/${org.tenantId}/${sensorId}/` }),
    );
    expect(objects.Contents?.filter((o) => o.Key!.includes('-unit7-000001-'))).toHaveLength(1);
    expect(objects.Contents![0]!.Key).toMatch(
      new RegExp(
        `^telemetry/${org.tenantId}/${sensorId}/\\d{4}-\\d{2}-\\d{2}/\\d{2}/${base}-unit7-000001-[0-9a-f]{12}\\.jsonl\\.gz$`,
      ),
    );
    // Without a batch id, the hash names it: a retry is found the same way.
    const anonymous = { kind: 'das', frames: frames(base + 60_000, 2) };
    const a = await post(anonymous);
    const b = await post(anonymous);
    expect([a.status, a.body.duplicate, b.status, b.body.duplicate]).toEqual([201, false, 201, true]);
    expect(b.body.batch_id).toBe(a.body.batch_id);
  });

  it('continues a disturbance that goes on into the next batch instead of raising an event a batch, and raises one after a quiet gap or elsewhere', async () => {
    const at = base + 40 * 60_000;
    // Channels 60 and 61 hot in the last three frames of one batch and the first four of the next: one disturbance of 7 s.
    const one = await post({ batch_id: 'long-1', kind: 'das', frames: frames(at, 10, { 60: 9, 61: 11 }, [7, 8, 9]) });
    expect(one.body).toMatchObject({ detections: 1, continued_event_ids: [] });
    expect(one.body.event_ids).toHaveLength(1);
    const two = await post({
      batch_id: 'long-2',
      kind: 'das',
      frames: frames(at + 10_000, 10, { 61: 10, 62: 8 }, [0, 1, 2, 3]),
    });
    expect(two.status, two.text).toBe(201);
    expect(two.body).toMatchObject({
      detections: 1,
      event_ids: [],
      continued_event_ids: one.body.event_ids,
      duplicate: false,
    });
    // Its retry answers the same.
    expect(
      (
        await post({
          batch_id: 'long-2',
          kind: 'das',
          frames: frames(at + 10_000, 10, { 61: 10, 62: 8 }, [0, 1, 2, 3]),
        })
      ).body,
    ).toMatchObject({
      duplicate: true,
      detections: 1,
      event_ids: [],
      continued_event_ids: one.body.event_ids,
    });
    // 15 s of quiet on channel 61, then it is hot again, and channel 150 with it: two new disturbances.
    const three = await post({
      batch_id: 'long-3',
      kind: 'das',
      frames: frames(at + 20_000, 10, { 61: 10, 150: 9 }, [8]),
    });
    expect(three.body).toMatchObject({ detections: 2, continued_event_ids: [] });
    expect(three.body.event_ids).toHaveLength(2);
    const events = await call('GET', '/api/v1/events', {
      token: org.token,
      query: { type: 'fibre.disturbance', limit: 100 },
    });
    const raised = events.body.filter((e: any) => String(e.payload.batch_id).startsWith('long-'));
    expect(raised.map((e: any) => e.event_id).sort()).toEqual([...one.body.event_ids, ...three.body.event_ids].sort());
  });

  it('refuses the same batch id with other frames', async () => {
    const other = { ...batch, frames: frames(base, 10) };
    const res = await post(other);
    expect(res.status).toBe(409);
  });

  it('stores a quiet batch without events, and one of a sensor without a mapping without detecting', async () => {
    const quiet = await post({ batch_id: 'quiet-1', kind: 'das', frames: frames(base + 120_000, 5) });
    expect(quiet.body).toMatchObject({ detections: 0, event_ids: [], duplicate: false });
    const unmapped = await call('POST', '/api/v1/sensors', {
      token: org.token,
      body: { environment_id: environmentId, name: 'DTS', type: 'fibre_optic', location: { lat: 51.1, lon: 1.4 } },
    });
    const dts = await post(
      { kind: 'dts', frames: frames(base, 3, { 5: 80 }, [0, 1, 2]) },
      org.token,
      unmapped.body.sensor_id,
    );
    expect(dts.status).toBe(201);
    expect(dts.body).toMatchObject({ detections: 0, max_value: 80 });
  });

  it('enforces the limits: values per batch (413), frames, channels, span and times (422), and the sensor type', async () => {
    const wide = {
      kind: 'das',
      frames: Array.from({ length: 11 }, (_, i) => ({
        time: new Date(base + i).toISOString(),
        channel_start: 0,
        values: new Array(10_000).fill(0),
      })),
    };
    expect((await post(wide)).status).toBe(413);
    const tooMany = {
      kind: 'das',
      frames: Array.from({ length: 1001 }, (_, i) => ({
        time: new Date(base + i).toISOString(),
        channel_start: 0,
        values: [1],
      })),
    };
    expect((await post(tooMany)).status).toBe(422);
    expect(
      (
        await post({
          kind: 'das',
          frames: [{ time: new Date(base).toISOString(), channel_start: 0, values: new Array(10_001).fill(0) }],
        })
      ).status,
    ).toBe(422);
    const long = await post({ kind: 'das', frames: [frames(base, 1)[0], frames(base + 3_600_001, 1)[0]] });
    expect(long.status).toBe(422);
    expect((await post({ kind: 'das', frames: frames(Date.now() + 5 * 60_000, 1) })).status).toBe(422);
    expect((await post({ kind: 'das', frames: frames(Date.now() - 8 * 86_400_000, 1) })).status).toBe(422);
    expect((await post({ kind: 'sonar', frames: frames(base, 1) })).status).toBe(422);
    expect(
      (
        await call('POST', `/api/v1/sensors/${sensorId}/telemetry`, {
          token: org.token,
          rawBody: `{"kind":"das","frames":[${'1,'.repeat(600_000)}1]}`,
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(413);
    const radar = await call('POST', '/api/v1/sensors', {
      token: org.token,
      body: { environment_id: environmentId, name: 'Radar', type: 'radar', location: { lat: 51.1, lon: 1.4 } },
    });
    expect((await post({ kind: 'das', frames: frames(base, 1) }, org.token, radar.body.sensor_id)).status).toBe(422);
  });

  it('is for OPERATOR and up, and another tenant does not find the sensor', async () => {
    const viewer = await createUser(org.token, 'VIEWER');
    expect((await post({ kind: 'das', frames: frames(base, 1) }, viewer.token)).status).toBe(403);
    const operator = await createUser(org.token, 'OPERATOR');
    expect(
      (await post({ batch_id: 'operator-1', kind: 'das', frames: frames(base + 180_000, 1) }, operator.token)).status,
    ).toBe(201);
    const other = await registerTenant('Stranger');
    expect((await post({ kind: 'das', frames: frames(base, 1) }, other.token)).status).toBe(404);
  });
});

describe('sensors.telemetryRead', () => {
  const windowStart = base + 30 * 60_000;
  const posted = [...frames(windowStart, 6), ...frames(windowStart + 6000, 6)];

  beforeAll(async () => {
    // Two batches back to back, the second posted first.
    expect((await post({ batch_id: 'w-2', kind: 'das', frames: posted.slice(6) })).status).toBe(201);
    expect((await post({ batch_id: 'w-1', kind: 'das', frames: posted.slice(0, 6) })).status).toBe(201);
  });

  it('answers the frames of a window exactly as posted, across batches, cut to the channels asked', async () => {
    const res = await read({
      from: new Date(windowStart).toISOString(),
      to: new Date(windowStart + 11_000).toISOString(),
    });
    expect(res.status, res.text).toBe(200);
    expect(
      res.body.frames.map((f: any) => ({ time: f.time, channel_start: f.channel_start, values: f.values })),
    ).toEqual(posted);
    expect(res.body.frames.map((f: any) => f.batch_id)).toEqual([
      ...new Array(6).fill('w-1'),
      ...new Array(6).fill('w-2'),
    ]);
    expect(res.body.next_from).toBeNull();
    const inner = await read({
      from: new Date(windowStart + 2000).toISOString(),
      to: new Date(windowStart + 7000).toISOString(),
      channel_from: 50,
      channel_to: 59,
    });
    expect(inner.body.frames.map((f: any) => [f.time, f.channel_start, f.values])).toEqual(
      posted.slice(2, 8).map((f) => [f.time, 50, f.values.slice(50, 60)]),
    );
  });

  it('pages with max_frames and next_from, losing and repeating nothing', async () => {
    const to = new Date(windowStart + 11_000).toISOString();
    let from = new Date(windowStart).toISOString();
    const seen: string[] = [];
    for (let page = 0; page < 5 && from; page++) {
      const res = await read({ from, to, max_frames: 5 });
      expect(res.body.frames.length).toBeLessThanOrEqual(5);
      seen.push(...res.body.frames.map((f: any) => f.time));
      from = res.body.next_from;
    }
    expect(seen).toEqual(posted.map((f) => f.time));
  });

  it('refuses a window over 24 hours or backwards, and answers VIEWERs but not another tenant', async () => {
    expect(
      (await read({ from: new Date(base).toISOString(), to: new Date(base + 25 * 3_600_000).toISOString() })).status,
    ).toBe(422);
    expect((await read({ from: new Date(base + 1000).toISOString(), to: new Date(base).toISOString() })).status).toBe(
      422,
    );
    const viewer = await createUser(org.token, 'VIEWER');
    const res = await read(
      { from: new Date(windowStart).toISOString(), to: new Date(windowStart + 11_000).toISOString() },
      viewer.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.frames).toHaveLength(12);
    const other = await registerTenant('Reader');
    expect(
      (
        await read(
          { from: new Date(windowStart).toISOString(), to: new Date(windowStart + 1000).toISOString() },
          other.token,
        )
      ).status,
    ).toBe(404);
  });
});
