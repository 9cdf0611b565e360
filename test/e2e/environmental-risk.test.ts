/**
 * Environmental hazards end to end, over real HTTP against the local stack, polling a local HTTP
 * server that replays real captures (test/fixtures/feeds, sources in SOURCES.md): GDACS's events
 * around Pakistan of October 2026, NWS's Severe Thunderstorm Warning for Sierra County, New Mexico
 * of 2023-09-13 (with its storm polygon), and USGS's day of 2022-09-29.
 *
 * The captures are old and the service judges by the clock (an NWS alert in force, an earthquake
 * of the last days), so each is replayed as if published now: every time in it is moved by the
 * same offset, nothing else changed. The NWS capture is also served as it was (long expired), and
 * once with its `event` renamed `Tsunami Warning` (no real tsunami capture was found: SOURCES.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUser, registerTenant, type RegisteredTenant } from '../support/api.js';
import { feedFixture, startFeedServer, type FeedServer } from '../support/feed-server.js';
import { geojsonBytes, uploadMapFile } from '../support/geo-files.js';
import { until } from '../support/threat-site.js';

const HOUR = 3_600_000;
const NOW = Date.now();
/** A degree of latitude on the mean sphere, km. */
const KM_PER_DEGREE = 111.195;
const north = (p: { lat: number; lon: number }, km: number) => ({
  lat: Number((p.lat + km / KM_PER_DEGREE).toFixed(5)),
  lon: p.lon,
});

type Json = Record<string, any>;
const parsed = (path: string): Json => JSON.parse(feedFixture(path).toString());
const naive = (ms: number) => new Date(ms).toISOString().slice(0, 19);

/** GDACS's capture with its newest event (EQ 1569499, M4.8 in Afghanistan, still current) an hour old. */
function gdacsNow(): Buffer {
  const doc = parsed('gdacs/eventsbyarea-pakistan.2026-10-08.json');
  const offset = NOW - HOUR - Date.parse('2026-10-04T20:27:25Z');
  for (const f of doc.features) {
    for (const k of ['fromdate', 'todate', 'datemodified'])
      if (f.properties[k]) f.properties[k] = naive(Date.parse(`${f.properties[k]}Z`) + offset);
  }
  return Buffer.from(JSON.stringify(doc));
}

/** NWS's warning (effective 02:12Z, expiring 02:45Z) as if issued ten minutes ago; `event` renamed when given. */
function nwsNow(event?: string): Buffer {
  const doc = parsed('nws-alerts/alerts-zone.2023-09-13.json');
  const offset = NOW - 10 * 60_000 - Date.parse('2023-09-12T20:12:00-06:00');
  for (const f of doc.features) {
    for (const k of ['sent', 'effective', 'onset', 'expires', 'ends'])
      if (f.properties[k]) f.properties[k] = new Date(Date.parse(f.properties[k]) + offset).toISOString();
    if (event) f.properties.event = event;
  }
  return Buffer.from(JSON.stringify(doc));
}

/** USGS nn00848153: M2.9, 27 km SSE of Mina, Nevada. */
const QUAKE = { id: 'nn00848153', lat: 38.1809, lon: -117.936 };
/** USGS's day with that quake two hours old. */
function quakesNow(): Buffer {
  const doc = parsed('usgs-quakes/all_day.2022-09-29.trimmed.geojson');
  const offset = NOW - 2 * HOUR - doc.features.find((f: Json) => f.id === QUAKE.id).properties.time;
  for (const f of doc.features) {
    f.properties.time += offset;
    f.properties.updated += offset;
  }
  return Buffer.from(JSON.stringify(doc));
}

/** GDACS EQ 1569499 (current) and EQ 1568845 (over: `iscurrent` false). */
const GDACS_EQ = { id: 'gdacs-EQ-1569499', lat: 36.611, lon: 71.0216 };
const GDACS_OVER = { lat: 36.0991, lon: 68.7818 };
/** The storm's motion point, inside the warning polygon (SOURCES.md). */
const IN_STORM = { lat: 33.23, lon: -107.12 };
/** A line crossing the polygon west to east (it spans 107.22 W to 106.82 W at about 33.15 N). */
const LINE_ACROSS = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { name: 'Caballo 115 kV' },
      geometry: {
        type: 'LineString',
        coordinates: [
          [-107.4, 33.15],
          [-106.6, 33.15],
        ],
      },
    },
  ],
};
const OSLO = { lat: 59.9139, lon: 10.7522 };

let server: FeedServer;
let base: string;

beforeAll(async () => {
  server = await startFeedServer({
    '/gdacs.json': gdacsNow(),
    '/nws.json': nwsNow(),
    '/nws-expired.json': feedFixture('nws-alerts/alerts-zone.2023-09-13.json'),
    '/tsunami.json': nwsNow('Tsunami Warning'),
    '/quakes.geojson': quakesNow(),
  });
  base = server.base;
});
afterAll(() => server.close());

async function connector(
  org: RegisteredTenant,
  feed: string,
  path: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await call('POST', '/api/v1/integrations', {
    token: org.token,
    body: { name: `${feed} ${path}`, kind: 'feed', config: { feed, url: `${base}${path}`, ...extra } },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.integration_id;
}

async function poll(org: RegisteredTenant, id: string) {
  const res = await call('POST', `/api/v1/connectors/${id}/poll`, { token: org.token });
  expect(res.status, res.text).toBe(200);
  expect(res.body.outcome, res.text).toBe('ok');
  return res.body;
}

async function environment(
  org: RegisteredTenant,
  name: string,
  location: { lat: number; lon: number } | null,
): Promise<string> {
  const res = await call('POST', '/api/v1/environments', {
    token: org.token,
    body: { name, type: 'site', ...(location ? { location } : {}) },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.environment_id;
}

const hazardAlerts = (org: RegisteredTenant, count: number) =>
  until(
    async () =>
      (await call('GET', '/api/v1/events', { token: org.token, query: { type: 'hazard.alert' } })).body as Json[],
    (events) => events.length >= count,
    `${count} hazard alerts`,
  );

describe('GDACS hazard alerts', () => {
  it('raise one alert for an environment near a current event, none again after a second poll, none for a far one or for an event that is over', async () => {
    const org = await registerTenant('Gdacs');
    const near = await environment(org, 'Faizabad depot', north(GDACS_EQ, 40));
    const over = await environment(org, 'Mazar yard', north(GDACS_OVER, 20));
    const far = await environment(org, 'Oslo office', OSLO);
    const id = await connector(org, 'gdacs', '/gdacs.json');

    const first = await poll(org, id);
    expect(first.records).toMatchObject({ read: 7, stored: 7, skipped: 0 });
    expect(first.alerts_raised).toBe(1);
    expect((await poll(org, id)).alerts_raised).toBe(0);
    expect(first.connector).toMatchObject({ feed: 'gdacs', min_alert_level: 'green', radius_km: null });

    const [alert, ...more] = await hazardAlerts(org, 1);
    expect(more).toEqual([]);
    expect(alert).toMatchObject({
      type: 'hazard.alert',
      environment_id: near,
      location: { lat: GDACS_EQ.lat, lon: GDACS_EQ.lon },
      payload: {
        hazard: 'earthquake',
        feed: 'gdacs',
        connector_id: id,
        record_id: GDACS_EQ.id,
        alert_level: 'green',
        level: 'low',
        near: { kind: 'environment', id: near, name: 'Faizabad depot' },
      },
    });
    expect(alert!.payload.distance_km).toBeCloseTo(40, 0);
    expect(alert!.description).toMatch(/^Earthquake in Afghanistan \(GDACS green\) 40(\.\d+)? km from Faizabad depot$/);
    expect([over, far]).not.toContain(alert!.environment_id);
  });

  it("raise nothing below the connector's least alert level", async () => {
    const org = await registerTenant('GdacsOrange');
    await environment(org, 'Faizabad depot', north(GDACS_EQ, 40));
    const id = await connector(org, 'gdacs', '/gdacs.json', { min_alert_level: 'orange' });
    expect((await poll(org, id)).alerts_raised).toBe(0);
  });

  it('take only settings of their feed', async () => {
    const org = await registerTenant('GdacsConfig');
    const res = await call('POST', '/api/v1/integrations', {
      token: org.token,
      body: { name: 'x', kind: 'feed', config: { feed: 'gdacs', url: `${base}/gdacs.json`, min_magnitude: 5 } },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'config', 'min_magnitude']);
    const level = await call('POST', '/api/v1/integrations', {
      token: org.token,
      body: { name: 'x', kind: 'feed', config: { feed: 'usgs-quakes', min_alert_level: 'red' } },
    });
    expect(level.status).toBe(422);
    expect(level.body.detail[0].loc).toEqual(['body', 'config', 'min_alert_level']);
  });
});

describe('NWS hazard alerts', () => {
  it('raise one alert for an environment inside a warning polygon and one for an environment whose line crosses it, once; none for an expired warning', async () => {
    const org = await registerTenant('Nws');
    const inside = await environment(org, 'Truth or Consequences yard', IN_STORM);
    const lined = await environment(org, 'Caballo corridor', null);
    await environment(org, 'Oslo office', OSLO);
    const upload = await uploadMapFile(org.token, lined, 'lines.geojson', geojsonBytes(LINE_ACROSS));
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);

    const expired = await poll(org, await connector(org, 'nws-alerts', '/nws-expired.json'));
    expect(expired.records).toMatchObject({ read: 1, stored: 1, skipped: 0 });
    expect(expired.alerts_raised).toBe(0);

    const id = await connector(org, 'nws-alerts', '/nws.json');
    const first = await poll(org, id);
    expect(first.alerts_raised).toBe(2);
    expect((await poll(org, id)).alerts_raised).toBe(0);
    expect(first.connector).toMatchObject({ feed: 'nws-alerts', radius_km: 5, interval_minutes: 5 });

    const alerts = await hazardAlerts(org, 2);
    expect(alerts).toHaveLength(2);
    const byEnv = Object.fromEntries(alerts.map((a) => [a.environment_id, a]));
    expect(byEnv[inside]).toMatchObject({
      location: IN_STORM,
      payload: {
        hazard: 'weather',
        feed: 'nws-alerts',
        event: 'Severe Thunderstorm Warning',
        tsunami: false,
        severity: 'Severe',
        level: 'high',
        distance_km: 0,
        near: { kind: 'environment', id: inside },
      },
    });
    expect(byEnv[inside].description).toMatch(/ over Truth or Consequences yard$/);
    expect(byEnv[lined]).toMatchObject({
      payload: { feed: 'nws-alerts', distance_km: 0, near: { kind: 'line', name: 'Caballo 115 kV' } },
    });
  });

  it('mark a tsunami warning as a tsunami', async () => {
    const org = await registerTenant('Tsunami');
    const inside = await environment(org, 'Harbour', IN_STORM);
    expect((await poll(org, await connector(org, 'nws-alerts', '/tsunami.json'))).alerts_raised).toBe(1);
    const [alert] = await hazardAlerts(org, 1);
    expect(alert).toMatchObject({
      environment_id: inside,
      payload: { hazard: 'tsunami', tsunami: true, event: 'Tsunami Warning' },
    });
  });
});

describe('environmentalRisk.get', () => {
  it("answers the hazards near each of the tenant's environments, and nothing of another tenant's", async () => {
    const org = await registerTenant('Risk');
    const mina = await environment(org, 'Mina substation', north(QUAKE, 30));
    const depot = await environment(org, 'Faizabad depot', north(GDACS_EQ, 40));
    const yard = await environment(org, 'Truth or Consequences yard', IN_STORM);
    const oslo = await environment(org, 'Oslo office', OSLO);
    for (const [feed, path] of [
      ['usgs-quakes', '/quakes.geojson'],
      ['gdacs', '/gdacs.json'],
      ['nws-alerts', '/nws.json'],
    ] as const)
      await poll(org, await connector(org, feed, path));

    const viewer = await createUser(org.token, 'VIEWER');
    const res = await call('GET', '/api/v1/environmental-risk', { token: viewer.token });
    expect(res.status, res.text).toBe(200);
    const envs = Object.fromEntries((res.body.environments as Json[]).map((e) => [e.environment_id, e]));
    expect(Object.keys(envs).sort()).toEqual([mina, depot, yard, oslo].sort());
    expect(res.body.truncated).toBe(false);

    const quake = envs[mina].hazards.find((h: Json) => h.record_id === QUAKE.id);
    expect(quake).toMatchObject({
      feed: 'usgs-quakes',
      hazard: 'earthquake',
      level: 'low',
      near: { kind: 'environment', id: mina },
      location: { lat: QUAKE.lat, lon: QUAKE.lon },
      details: { magnitude: 2.9 },
    });
    expect(quake.distance_km).toBeCloseTo(30, 0);
    const event = envs[depot].hazards.find((h: Json) => h.record_id === GDACS_EQ.id);
    expect(event).toMatchObject({
      feed: 'gdacs',
      hazard: 'earthquake',
      level: 'low',
      details: { alert_level: 'green' },
    });
    expect(event.distance_km).toBeCloseTo(40, 0);
    expect(envs[yard]).toMatchObject({
      level: 'high',
      hazards_total: 1,
      hazards: [
        {
          feed: 'nws-alerts',
          hazard: 'weather',
          level: 'high',
          distance_km: 0,
          details: { event: 'Severe Thunderstorm Warning' },
        },
      ],
    });
    expect(envs[oslo]).toMatchObject({ level: 'none', hazards: [], hazards_total: 0, located: true });
    // The gravest first.
    expect(res.body.environments[0].environment_id).toBe(yard);

    // One environment; a wider radius finds no more than there is; the window excludes the old.
    const one = await call('GET', '/api/v1/environmental-risk', { token: org.token, query: { environment_id: yard } });
    expect(one.body.environments.map((e: Json) => e.environment_id)).toEqual([yard]);
    const strong = await call('GET', '/api/v1/environmental-risk', {
      token: org.token,
      query: { environment_id: mina, min_magnitude: 3 },
    });
    expect(strong.body.environments[0].hazards.map((h: Json) => h.record_id)).not.toContain(QUAKE.id);

    // Another tenant reads its own places and the public sources (empty here), none of these.
    const other = await registerTenant('RiskOther');
    const theirs = await environment(other, 'Mina annex', north(QUAKE, 30));
    const seen = await call('GET', '/api/v1/environmental-risk', { token: other.token });
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.environments).toEqual([
      { environment_id: theirs, name: 'Mina annex', located: true, level: 'none', hazards: [], hazards_total: 0 },
    ]);
    expect(seen.body.sources).toEqual({
      'usgs-quakes': ['usgs-quakes'],
      gdacs: ['gdacs'],
      'nws-alerts': ['nws-alerts'],
    });
    const foreign = await call('GET', '/api/v1/environmental-risk', {
      token: other.token,
      query: { environment_id: mina },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: 'Environment not found' });
  });

  it('refuses bad parameters (422) and a request without a credential (401)', async () => {
    const org = await registerTenant('RiskBad');
    const bad: [string, string][] = [
      ['days', '0'],
      ['days', '31'],
      ['days', 'week'],
      ['radius_km', '0'],
      ['radius_km', '5000'],
      ['min_magnitude', '1'],
      ['limit', '0'],
      ['limit', '101'],
      ['environment_id', 'not-a-uuid'],
      ['colour', 'red'],
    ];
    for (const [name, value] of bad) {
      const res = await call('GET', '/api/v1/environmental-risk', { token: org.token, query: { [name]: value } });
      expect(res.status, `${name}=${value}: ${res.text}`).toBe(422);
      expect(res.body.detail[0].loc, `${name}=${value}`).toEqual(['query', name]);
    }
    expect((await call('GET', '/api/v1/environmental-risk')).status).toBe(401);
  });
});
