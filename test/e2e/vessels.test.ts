/**
 * Vessels end to end, through the real API and the stack's own vessel tracker: real-format AIS
 * sentences (test/support/ais.ts) for three vessels posted to /api/v1/events/batch by an AIS
 * receiver, a subsea cable uploaded as KML and tagged, then the profiles, the dark and loitering
 * lists, the tracks, the area search, the decoding failures and the cable risk that follow.
 */
import { PIPELINE_WAIT_MS } from '../support/pipeline.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { trackTenant, type AisEvent } from '../../shared/domain/vessels/tracker.js';
import { baseUrl, call, randomClientIp, registerTenant, type RegisteredTenant } from '../support/api.js';
import { CABLE_KML, FAR_FROM_CABLE, ON_CABLE, scenario, VESSELS, type Report } from '../support/ais.js';
import { until } from '../support/threat-site.js';

let org: RegisteredTenant;
let sensorId: string;
let environmentId: string;
let fileId: string;
const batchAnswers: Record<string, any>[] = [];
const start = new Date(Date.now() - 150 * 60_000);

const get = (path: string, query?: Record<string, string | number>) => call('GET', path, { token: org.token, query });

async function upload(filename: string, text: string) {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(text, 'utf8')]), filename);
  const url = new URL(`/api/v1/environments/${environmentId}/infrastructure/upload`, baseUrl());
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${org.token}`, 'x-forwarded-for': randomClientIp() },
    body: form,
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { file_id: string };
}

const asEvent = (r: Report) => ({
  type: 'ais.position',
  sensor_id: sensorId,
  occurred_at: r.at.toISOString(),
  payload: { nmea: r.nmea.length === 1 ? r.nmea[0] : r.nmea },
});

/** Sentences a receiver hands over broken: a flipped character, a cut line, a base station report. */
const BROKEN = [
  '!AIVDM,1,1,,A,15RTgt0PAso;90TKcjM8h6g208CR,0*4A',
  '!AIVDM,1,1,,A,15RTgt0PAso;90TK',
  '!AIVDM,1,1,,A,403OviQuMGCqWrRO9>E6fE700@GO,0*4D',
];

beforeAll(async () => {
  org = await registerTenant('Vessels');
  const env = await call('POST', '/api/v1/environments', {
    token: org.token,
    body: { name: 'Dover Strait', type: 'port' },
  });
  environmentId = env.body.environment_id;
  const sensor = await call('POST', '/api/v1/sensors', {
    token: org.token,
    body: {
      environment_id: environmentId,
      name: 'AIS receiver, South Foreland',
      type: 'ais_receiver',
      location: { lat: 51.14, lon: 1.37 },
    },
  });
  expect(sensor.status, sensor.text).toBe(201);
  sensorId = sensor.body.sensor_id;
  fileId = (await upload('cables.kml', CABLE_KML)).file_id;
  const tagged = await call('PATCH', `/api/v1/environments/${environmentId}/infrastructure/${fileId}/lines`, {
    token: org.token,
    body: { kind: 'subsea_cable' },
  });
  expect(tagged.status, tagged.text).toBe(200);

  const events = [
    ...scenario(start).map(asEvent),
    ...BROKEN.map((nmea) => ({
      type: 'ais.position',
      sensor_id: sensorId,
      occurred_at: start.toISOString(),
      payload: { nmea },
    })),
  ];
  for (let i = 0; i < events.length; i += 100) {
    const res = await call('POST', '/api/v1/events/batch', {
      token: org.token,
      body: { events: events.slice(i, i + 100) },
    });
    expect(res.status, res.text).toBe(201);
    batchAnswers.push(...(res.body as Record<string, any>[]));
  }
  // The tracker works from the bus, moments after the events are stored.
  await until(
    async () => (await get('/api/v1/vessels/dark')).body,
    (b: any) =>
      b.gaps?.some((g: any) => g.mmsi === String(VESSELS.dark.mmsi)) &&
      b.loitering?.some((l: any) => l.mmsi === String(VESSELS.loiterer.mmsi)),
    'the gap and the loitering to be found',
    PIPELINE_WAIT_MS,
  );
  // The gap and the loitering show before every report is tracked: the bus hands the batch's
  // events to the tracker in several deliveries. Wait for each vessel's whole track.
  const expected = [
    [VESSELS.dark.mmsi, 32],
    [VESSELS.loiterer.mmsi, 21],
    [VESSELS.passer.mmsi, 21],
  ] as const;
  for (const [mmsi, positions] of expected)
    await until(
      async () => (await get(`/api/v1/vessels/${mmsi}`)).body,
      (b: any) => b.track?.positions === positions,
      `all ${positions} reports of vessel ${mmsi} to be tracked`,
      PIPELINE_WAIT_MS,
    );
}, 120_000);

describe('AIS ingest', () => {
  it('stores decoded reports: the position as the location, static data as ais.static, bad sentences with the reason', () => {
    const position = batchAnswers.find(
      (e) => e.payload.mmsi === String(VESSELS.passer.mmsi) && e.type === 'ais.position',
    )!;
    expect(position.location.lat).toBeCloseTo(51.45, 4);
    expect(position.payload).toMatchObject({ message_type: 1, sog_knots: 10, cog_degrees: 45 });
    const identity = batchAnswers.find((e) => e.type === 'ais.static' && e.payload.mmsi === String(VESSELS.dark.mmsi))!;
    expect(identity.payload).toMatchObject({
      name: 'NORTHERN STAR',
      call_sign: 'MNST1',
      imo: 9300001,
      ship_type: 70,
      destination: 'ROTTERDAM',
    });
    expect(identity.payload.nmea).toHaveLength(2);
    const failed = batchAnswers.filter((e) => e.payload.ais_error).map((e) => e.payload.ais_error.reason);
    expect(failed.sort()).toEqual(['checksum', 'truncated', 'unsupported_type']);
  });
});

describe('vessels.aisStats', () => {
  it('counts the sentences that did not decode, once each, by reason', async () => {
    const stats = await until(
      async () => (await get('/api/v1/vessels/ais-stats')).body,
      (b: any) => b.failed === 3,
      'the failures to be counted',
    );
    expect(stats.by_reason).toEqual({ checksum: 1, truncated: 1, unsupported_type: 1 });
  });
});

describe('vessels.get', () => {
  it('names the AIS gap of the vessel that went dark, where it began and ended', async () => {
    const res = await get(`/api/v1/vessels/${VESSELS.dark.mmsi}`);
    expect(res.status, res.text).toBe(200);
    const profile = res.body;
    expect(profile.identity).toMatchObject({
      name: 'NORTHERN STAR',
      call_sign: 'MNST1',
      imo: 9300001,
      ship_type_category: 'cargo',
      length_m: 150,
    });
    expect(profile.flag).toMatchObject({ country_code: 'GB' });
    expect(profile.behaviour.gaps).toHaveLength(1);
    const gap = profile.behaviour.gaps[0];
    expect(gap.duration_minutes).toBe(40);
    expect(gap.start).toBe(new Date(start.getTime() + 40 * 60_000).toISOString());
    expect(gap.end).toBe(new Date(start.getTime() + 80 * 60_000).toISOString());
    expect(gap.from.lon).toBeLessThan(gap.to.lon);
    expect(profile.behaviour.loitering).toEqual([]);
    expect(profile.track.positions).toBe(32);
    // Last heard 50 minutes ago: dark now too.
    expect(profile.status.dark).toBe(true);
  });

  it('names the loitering over the cable, and the line it came within metres of', async () => {
    const profile = (await get(`/api/v1/vessels/${VESSELS.loiterer.mmsi}`)).body;
    expect(profile.flag).toMatchObject({ country_code: 'NO' });
    expect(profile.behaviour.loitering).toHaveLength(1);
    const loitering = profile.behaviour.loitering[0];
    expect(loitering.duration_minutes).toBe(60);
    expect(loitering.radius_m).toBeLessThan(200);
    expect(loitering.center.lat).toBeCloseTo(ON_CABLE.lat, 2);
    expect(profile.behaviour.gaps).toEqual([]);
    expect(profile.infrastructure.closest_approach.distance_m).toBeLessThan(200);
    expect(profile.infrastructure.closest_approach).toMatchObject({ name: 'Channel Link 1', kind: 'subsea_cable' });
  });

  it("says what it does not know, and 404s an MMSI the tenant never saw (and another tenant's)", async () => {
    const passer = (await get(`/api/v1/vessels/${VESSELS.passer.mmsi}`)).body;
    expect(passer.identity).toMatchObject({ name: 'BLUE YONDER', imo: null });
    expect(passer.behaviour.gaps).toEqual([]);
    expect(passer.behaviour.loitering).toEqual([]);
    expect((await get('/api/v1/vessels/999999999')).status).toBe(404);
    const other = await registerTenant('Other');
    expect((await call('GET', `/api/v1/vessels/${VESSELS.dark.mmsi}`, { token: other.token })).status).toBe(404);
    expect((await get('/api/v1/vessels/12345')).status).toBe(422);
  });
});

describe('vessels.dark', () => {
  it('lists the vessel that went dark and the one loitering, with the events that announced them', async () => {
    const dark = (await get('/api/v1/vessels/dark')).body;
    expect(dark.gaps.map((g: any) => g.mmsi)).toEqual([String(VESSELS.dark.mmsi)]);
    expect(dark.loitering.map((l: any) => l.mmsi)).toEqual([String(VESSELS.loiterer.mmsi)]);
    expect(dark.dark_now.map((v: any) => v.mmsi).sort()).toEqual(
      [String(VESSELS.dark.mmsi), String(VESSELS.loiterer.mmsi), String(VESSELS.passer.mmsi)].sort(),
    );
    const onlyLoitering = (await get('/api/v1/vessels/dark', { kind: 'loitering' })).body;
    expect(onlyLoitering.gaps).toEqual([]);
    expect(onlyLoitering.dark_now).toEqual([]);

    const gapEvent = (await get(`/api/v1/events/${dark.gaps[0].event_id}`)).body;
    expect(gapEvent).toMatchObject({ type: 'ais.gap', payload: { mmsi: String(VESSELS.dark.mmsi), gap_minutes: 40 } });
    const loiterEvent = (await get(`/api/v1/events/${dark.loitering[0].event_id}`)).body;
    expect(loiterEvent).toMatchObject({
      type: 'vessel.loitering',
      environment_id: environmentId,
      payload: { mmsi: String(VESSELS.loiterer.mmsi), duration_minutes: 30 },
    });
  });

  it('announces nothing twice when the tracker sees the same reports again', async () => {
    const positions = (await get('/api/v1/events', { type: 'ais.position', limit: 200 })).body as AisEvent[];
    expect(positions.length).toBeGreaterThan(70);
    await trackTenant(org.tenantId, positions);
    await trackTenant(org.tenantId, positions.slice().reverse());
    const gaps = (await get('/api/v1/events', { type: 'ais.gap' })).body;
    const loiterings = (await get('/api/v1/events', { type: 'vessel.loitering' })).body;
    expect(gaps).toHaveLength(1);
    expect(loiterings).toHaveLength(1);
    const dark = (await get('/api/v1/vessels/dark')).body;
    expect(dark.gaps).toHaveLength(1);
    expect(dark.loitering).toHaveLength(1);
    expect((await get('/api/v1/vessels/ais-stats')).body.failed).toBe(3);
  });
});

describe('vessels.track', () => {
  it('answers the positions between two times, oldest first', async () => {
    const all = (await get(`/api/v1/vessels/${VESSELS.dark.mmsi}/track`)).body;
    expect(all.positions).toHaveLength(32);
    expect(all.truncated).toBe(false);
    const times = all.positions.map((p: any) => p.occurred_at);
    expect([...times].sort()).toEqual(times);
    const part = (
      await get(`/api/v1/vessels/${VESSELS.dark.mmsi}/track`, { start_date: times[5], end_date: times[9], limit: 3 })
    ).body;
    expect(part.positions.map((p: any) => p.occurred_at)).toEqual(times.slice(5, 8));
    expect(part.truncated).toBe(true);
    expect((await get('/api/v1/vessels/999999998/track')).status).toBe(404);
  });
});

describe('vessels.list', () => {
  it('lists the vessels seen, and those seen in an area', async () => {
    const all = (await get('/api/v1/vessels')).body;
    expect(all.map((v: any) => v.mmsi).sort()).toEqual(
      [String(VESSELS.dark.mmsi), String(VESSELS.loiterer.mmsi), String(VESSELS.passer.mmsi)].sort(),
    );
    const near = (await get('/api/v1/vessels', { lat: ON_CABLE.lat, lon: ON_CABLE.lon, radius_km: 2 })).body;
    expect(near.map((v: any) => v.mmsi)).toEqual([String(VESSELS.loiterer.mmsi)]);
    expect(near[0]).toMatchObject({ name: 'SEA ANCHOR', ship_type_category: 'fishing' });
    // Paged like the other lists: most recently seen first, offset then limit.
    const pages = [0, 1, 2].map((offset) => get('/api/v1/vessels', { limit: 1, offset }));
    const paged = (await Promise.all(pages)).map((r) => r.body.map((v: any) => v.mmsi));
    expect(paged.flat()).toEqual(all.map((v: any) => v.mmsi));
    expect((await get('/api/v1/vessels', { lat: 10 })).status).toBe(422);
  });
});

describe('vessels.cableRisk', () => {
  it('is higher where a vessel loitered over the cable than 20 km away, with every factor shown', async () => {
    const here = (await get('/api/v1/cable-risk', { lat: ON_CABLE.lat, lon: ON_CABLE.lon })).body;
    const far = (await get('/api/v1/cable-risk', { lat: FAR_FROM_CABLE.lat, lon: FAR_FROM_CABLE.lon })).body;
    expect(here.nearest_lines[0]).toMatchObject({ name: 'Channel Link 1', kind: 'subsea_cable' });
    expect(here.nearest_lines[0].distance_m).toBeLessThan(10);
    expect(here.factors.anchoring_loitering.value).toBe(1);
    expect(here.factors.vessel_activity.value).toBeGreaterThan(0);
    expect(here.factors.events_incidents.value).toBeGreaterThan(0);
    expect(far.nearest_lines[0].distance_m).toBeGreaterThan(15_000);
    expect(far.factors.distance.value).toBe(0);
    expect(here.risk).toBeGreaterThan(far.risk);
    expect(here.risk).toBeGreaterThanOrEqual(50);
    expect(far.risk).toBe(0);
    expect((await get('/api/v1/cable-risk', { lat: ON_CABLE.lat })).status).toBe(422);
  });

  it('says so when the tenant has no lines', async () => {
    const other = await registerTenant('No lines');
    const res = await call('GET', '/api/v1/cable-risk', {
      token: other.token,
      query: { lat: ON_CABLE.lat, lon: ON_CABLE.lon },
    });
    expect(res.body).toMatchObject({ risk: 0, nearest_lines: [] });
    expect(res.body.notes.join(' ')).toMatch(/No infrastructure line/);
  });
});

describe('infrastructure.lines', () => {
  it("lists the tenant's lines with their kind and length", async () => {
    const lines = (await get('/api/v1/infrastructure/lines')).body.items;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      line_id: `${fileId}:0`,
      name: 'Channel Link 1',
      kind: 'subsea_cable',
      vertices: 3,
    });
    expect(lines[0].length_km).toBeGreaterThan(28);
    expect(lines[0].length_km).toBeLessThan(32);
    expect((await get('/api/v1/infrastructure/lines', { kind: 'pipeline' })).body).toEqual({
      items: [],
      total: 0,
      limit: 50,
      offset: 0,
      next_offset: null,
    });
  });
});

describe('infrastructure.tagLines', () => {
  it('tags lines, one by one or the whole file, and refuses lines the file does not have', async () => {
    const other = await registerTenant('Tagging');
    const env = await call('POST', '/api/v1/environments', {
      token: other.token,
      body: { name: 'Grid', type: 'substation' },
    });
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(CABLE_KML, 'utf8')]), 'line.kml');
    const up = await fetch(
      new URL(`/api/v1/environments/${env.body.environment_id}/infrastructure/upload`, baseUrl()),
      {
        method: 'POST',
        headers: { authorization: `Bearer ${other.token}`, 'x-forwarded-for': randomClientIp() },
        body: form,
      },
    );
    const file = (await up.json()) as { file_id: string };
    const path = `/api/v1/environments/${env.body.environment_id}/infrastructure/${file.file_id}/lines`;
    expect((await call('GET', '/api/v1/infrastructure/lines', { token: other.token })).body.items[0].kind).toBe(
      'unclassified',
    );
    const tagged = await call('PATCH', path, { token: other.token, body: { kind: 'power_line' } });
    expect(tagged.status, tagged.text).toBe(200);
    expect(tagged.body).toEqual({ file_id: file.file_id, kind: 'power_line', tagged: 1 });
    const one = await call('PATCH', path, { token: other.token, body: { kind: 'pipeline', line_ids: ['0'] } });
    expect(one.body.tagged).toBe(1);
    expect((await call('GET', '/api/v1/infrastructure/lines', { token: other.token })).body.items[0].kind).toBe(
      'pipeline',
    );
    const unknown = await call('PATCH', path, { token: other.token, body: { kind: 'pipeline', line_ids: ['7'] } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0].loc).toEqual(['body', 'line_ids', 0]);
    // Another tenant's file is an unknown one.
    expect((await call('PATCH', path, { token: org.token, body: { kind: 'pipeline' } })).status).toBe(404);
  });
});
