/**
 * Connectors end to end, over real HTTP against the local stack, polling a local HTTP server that
 * replays real captures of the feeds (test/fixtures/feeds, sources in SOURCES.md): NOAA SWPC's
 * planetary K-index, a day of USGS earthquakes (one of them, M2.9 near Mina, Nevada, 30 km from
 * an environment of the tenant) and CISA's KEV catalogue. The records are stored once (and not
 * again on a second poll), the earthquake raises one `hazard.alert` for that environment (and
 * none for a far one), the status says so, and the catalogue answers a lookup by CVE.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as pollOnSchedule } from '../../functions/workers/connector-poll.js';
import { feedRecords } from '../../shared/db/feed-records.js';
import { feedSource } from '../../shared/domain/connectors/feed-sources.js';
import { installLocalAdapters } from '../../shared/local/compose.js';
import { checkSharedClients, runAsWorker } from '../../shared/local/iam-check.js';
import { workerById } from '../../shared/workers.js';
import { redactUrl } from '../../shared/url-secrets.js';
import { call, createUser, registerTenant, type RegisteredTenant } from '../support/api.js';
import { until } from '../support/threat-site.js';
import { feedFixture, startFeedServer, type FeedServer } from '../support/feed-server.js';
import { geojsonBytes, uploadMapFile } from '../support/geo-files.js';

const fixture = feedFixture;

/**
 * SWPC's Kp product of 2026-02-09 (array-of-arrays shape) cut after the given reading, as it was
 * served then: the last reading is Kp 5.33 (5+, a G1 storm) at 03:00 UTC on 5 February.
 */
function kpUntil(time: string): Buffer {
  const rows = JSON.parse(
    fixture('swpc-kp/noaa-planetary-k-index.array-of-arrays.2026-02-09.json').toString(),
  ) as string[][];
  const end = rows.findIndex((r) => r[0] === time);
  if (end < 1) throw new Error(`no Kp reading at ${time} in the capture`);
  return Buffer.from(JSON.stringify(rows.slice(0, end + 1)));
}
const DOCS: Record<string, Buffer> = {
  '/kp.json': fixture('swpc-kp/noaa-planetary-k-index.2026-08-09.json'),
  '/quakes.geojson': fixture('usgs-quakes/all_day.2022-09-29.trimmed.geojson'),
  '/kev.json': fixture('cisa-kev/known_exploited_vulnerabilities.2025.08.25.trimmed.json'),
  '/gdacs.json': fixture('gdacs/eventsbyarea-pakistan.2026-10-08.json'),
  '/plasma.json': fixture('swpc-solar-wind/plasma-7-day.2024-05-08.trimmed.json'),
  '/apt1.json': fixture('indicators/stix21-apt1.json'),
  '/falcon.csv': fixture('indicators/misp-csv.stealth-falcon.csv'),
  '/mag.json': fixture('swpc-solar-wind/mag-7-day.2026-04-18.trimmed.json'),
  '/kp-storm.json': kpUntil('2026-02-05 03:00:00.000'),
};
const counts = {
  kp: (JSON.parse(DOCS['/kp.json']!.toString()) as unknown[]).length,
  quakes: (JSON.parse(DOCS['/quakes.geojson']!.toString()) as { features: unknown[] }).features.length,
  kev: (JSON.parse(DOCS['/kev.json']!.toString()) as { vulnerabilities: unknown[] }).vulnerabilities.length,
};
/** USGS nn00848153: M2.9, 27 km SSE of Mina, Nevada, at 38.1809 N 117.936 W. */
const QUAKE = { id: 'nn00848153', lat: 38.1809, lon: -117.936 };
/** 30 km north of it (a degree of latitude is 111.195 km on the mean sphere). */
const NEAR = { lat: Number((QUAKE.lat + 30 / 111.195).toFixed(5)), lon: QUAKE.lon };

let server: FeedServer;
let base: string;

beforeAll(async () => {
  server = await startFeedServer(DOCS);
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
    body: { name: `${feed} here`, kind: 'feed', config: { feed, url: `${base}${path}`, ...extra } },
  });
  expect(res.status, res.text).toBe(201);
  // A credential in the source's query is shown REDACTED (docs/connectors.md, "Credentials in URLs").
  expect(res.body).toMatchObject({ kind: 'feed', endpoint: redactUrl(`${base}${path}`), credential_hint: null });
  expect(res.body.secret).toBeUndefined();
  return res.body.integration_id;
}

const poll = (org: RegisteredTenant, id: string, token = org.token) =>
  call('POST', `/api/v1/connectors/${id}/poll`, { token });

async function site(label: string) {
  const org = await registerTenant(label);
  const near = await call('POST', '/api/v1/environments', {
    token: org.token,
    body: { name: 'Mina substation', type: 'substation', location: NEAR },
  });
  expect(near.status, near.text).toBe(201);
  const far = await call('POST', '/api/v1/environments', {
    token: org.token,
    body: { name: 'Oslo office', type: 'building', location: { lat: 59.9139, lon: 10.7522 } },
  });
  expect(far.status, far.text).toBe(201);
  return { org, nearId: near.body.environment_id as string, farId: far.body.environment_id as string };
}

describe('connectors.poll', () => {
  it('stores each feed once, again once after a second poll, and raises one hazard alert for the environment 30 km from a quake', async () => {
    const { org, nearId, farId } = await site('Feeds');
    const kp = await connector(org, 'swpc-kp', '/kp.json');
    const quakes = await connector(org, 'usgs-quakes', '/quakes.geojson');
    const kev = await connector(org, 'cisa-kev', '/kev.json');

    const first = { kp: await poll(org, kp), quakes: await poll(org, quakes), kev: await poll(org, kev) };
    for (const [name, res] of Object.entries(first)) {
      expect(res.status, res.text).toBe(200);
      expect(res.body.outcome, name).toBe('ok');
      const n = counts[name as keyof typeof counts];
      expect(res.body.records, name).toEqual({ read: n, stored: n, updated: 0, unchanged: 0, skipped: 0 });
    }
    expect(first.quakes.body.alerts_raised).toBe(1);
    expect(first.kp.body.alerts_raised).toBe(0);

    const second = { kp: await poll(org, kp), quakes: await poll(org, quakes), kev: await poll(org, kev) };
    for (const [name, res] of Object.entries(second)) {
      const n = counts[name as keyof typeof counts];
      expect(res.body.records, name).toEqual({ read: n, stored: 0, updated: 0, unchanged: n, skipped: 0 });
      expect(res.body.alerts_raised, name).toBe(0);
    }
    expect(server.hits['/quakes.geojson']).toBeGreaterThanOrEqual(2);

    // The records, once each, under the source the connector polls (not the public feed's).
    const kept = await feedRecords<{ id: string }>(feedSource('usgs-quakes', `${base}/quakes.geojson`), 1000);
    expect(kept).toHaveLength(counts.quakes);
    expect(new Set(kept.map((r) => r.id)).size).toBe(counts.quakes);
    expect(await feedRecords('usgs-quakes', 1000)).not.toEqual(
      expect.arrayContaining([expect.objectContaining({ source_url: `${base}/quakes.geojson` })]),
    );

    // The alert: one hazard.alert event, on the near environment, stored by the announcer.
    const alerts = await until(
      async () => (await call('GET', '/api/v1/events', { token: org.token, query: { type: 'hazard.alert' } })).body,
      (events) => events.length > 0,
      'the hazard alert',
    );
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      type: 'hazard.alert',
      environment_id: nearId,
      location: { lat: QUAKE.lat, lon: QUAKE.lon },
      payload: {
        hazard: 'earthquake',
        record_id: QUAKE.id,
        magnitude: 2.9,
        near: { kind: 'environment', id: nearId, name: 'Mina substation' },
        connector_id: quakes,
      },
    });
    expect(alerts[0].payload.distance_km).toBeCloseTo(30, 0);
    expect(alerts[0].environment_id).not.toBe(farId);
    const again = await call('GET', '/api/v1/events', { token: org.token, query: { type: 'hazard.alert' } });
    expect(again.body).toHaveLength(1);
  });

  it('reports a failed poll in the status instead of failing, and counts failures until a success', async () => {
    const { org } = await site('FeedFails');
    const id = await connector(org, 'cisa-kev', '/busy');
    for (const n of [1, 2]) {
      const res = await poll(org, id);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ outcome: 'failed', error: 'the server answered 503', alerts_raised: 0 });
      expect(res.body.connector.status).toMatchObject({
        state: 'failing',
        consecutive_failures: n,
        last_error: 'the server answered 503',
        last_success_at: null,
      });
    }
    const fixed = await call('PATCH', `/api/v1/integrations/${id}`, {
      token: org.token,
      body: { config: { feed: 'cisa-kev', url: `${base}/kev.json` } },
    });
    expect(fixed.status, fixed.text).toBe(200);
    const ok = await poll(org, id);
    expect(ok.body.connector.status).toMatchObject({
      state: 'ok',
      consecutive_failures: 0,
      last_error: null,
      last_success_at: ok.body.connector.status.last_run_at,
    });
  });

  it("is the tenant admin's: a viewer gets 403, another tenant 404", async () => {
    const { org } = await site('FeedRoles');
    const id = await connector(org, 'swpc-kp', '/kp.json');
    const viewer = await createUser(org.token, 'VIEWER');
    expect((await poll(org, id, viewer.token)).status).toBe(403);
    const other = await registerTenant('FeedOther');
    expect((await poll(other, id)).status).toBe(404);
  });
});

describe('connectors.poll of the other feeds', () => {
  it('keeps GDACS events, solar wind and a STIX indicator list once each, as the parsers read them', async () => {
    const { org } = await site('MoreFeeds');
    for (const [feed, path] of [
      ['gdacs', '/gdacs.json'],
      ['swpc-plasma', '/plasma.json'],
      ['stix-indicators', '/apt1.json'],
    ] as const) {
      const id = await connector(org, feed, path);
      const first = await poll(org, id);
      expect(first.body.outcome, `${feed}: ${first.text}`).toBe('ok');
      expect(first.body.records.stored, feed).toBeGreaterThan(0);
      expect(first.body.records.stored, feed).toBe(first.body.records.read);
      const second = await poll(org, id);
      expect(second.body.records, feed).toMatchObject({ stored: 0, unchanged: first.body.records.read });
    }
  });

  it("needs a url for a tenant's own indicator list", async () => {
    const { org } = await site('OwnList');
    const res = await call('POST', '/api/v1/integrations', {
      token: org.token,
      body: { name: 'IOCs', kind: 'feed', config: { feed: 'csv-indicators' } },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'config', 'url']);
  });
});

describe('connectors.list', () => {
  it("lists the tenant's connectors with their status, and nothing of another tenant's", async () => {
    const { org } = await site('FeedList');
    const quakes = await connector(org, 'usgs-quakes', '/quakes.geojson?key=secret-token', {
      interval_minutes: 30,
      radius_km: 50,
    });
    const kp = await connector(org, 'swpc-kp', '/kp.json');
    const slack = await call('POST', '/api/v1/integrations', {
      token: org.token,
      body: { name: 'Ops', kind: 'http', config: { url: `${base}/hook` } },
    });
    expect(slack.status).toBe(201);
    await poll(org, quakes);

    const viewer = await createUser(org.token, 'VIEWER');
    const res = await call('GET', '/api/v1/connectors', { token: viewer.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ total: 2, limit: 50, offset: 0, next_offset: null });
    const [first, second] = res.body.items;
    expect([first.connector_id, second.connector_id]).toEqual([quakes, kp]);
    expect(first).toMatchObject({
      feed: 'usgs-quakes',
      // The key in the query is a credential: REDACTED.
      source_url: `${base}/quakes.geojson?key=REDACTED`,
      public_source: false,
      enabled: true,
      interval_minutes: 30,
      radius_km: 50,
      min_magnitude: 2.5,
      status: {
        state: 'ok',
        records_stored: counts.quakes,
        alerts_raised: 1,
        consecutive_failures: 0,
        last_error: null,
      },
    });
    // Tests run without LOCAL_CONNECTORS=on: the connectors keep their schedules, off.
    expect(first.status).toMatchObject({ scheduled: false, next_run_at: null });
    expect(second).toMatchObject({
      feed: 'swpc-kp',
      interval_minutes: 15,
      radius_km: null,
      min_magnitude: null,
      status: { state: 'never_polled', last_run_at: null },
    });

    const feedOnly = await call('GET', '/api/v1/connectors', { token: org.token, query: { feed: 'swpc-kp' } });
    expect(feedOnly.body.items.map((c: { connector_id: string }) => c.connector_id)).toEqual([kp]);
    const paged = await call('GET', '/api/v1/connectors', { token: org.token, query: { limit: 1, offset: 1 } });
    expect(paged.body.items.map((c: { connector_id: string }) => c.connector_id)).toEqual([kp]);
    const other = await registerTenant('FeedListOther');
    expect((await call('GET', '/api/v1/connectors', { token: other.token })).body.items).toEqual([]);
  });

  it('refuses a feed connector where people are told, and settings of another feed', async () => {
    const { org } = await site('FeedRefused');
    const id = await connector(org, 'swpc-kp', '/kp.json');
    const wrong = await call('POST', '/api/v1/integrations', {
      token: org.token,
      body: { name: 'Kp', kind: 'feed', config: { feed: 'swpc-kp', radius_km: 10 } },
    });
    expect(wrong.status).toBe(422);
    expect(JSON.stringify(wrong.body)).toContain('radius_km');
    const noFeed = await call('POST', '/api/v1/integrations', {
      token: org.token,
      body: { name: 'Kp', kind: 'feed', config: {} },
    });
    expect(noFeed.status).toBe(422);
    const workflow = await call('POST', '/api/v1/workflows', {
      token: org.token,
      body: {
        name: 'Tell the feed',
        trigger: { type: 'event', event_types: ['door.forced'] },
        actions: [{ type: 'notify_integration', integration_id: id }],
      },
    });
    expect(workflow.status, workflow.text).toBe(422);
    expect(JSON.stringify(workflow.body)).toContain('tells nobody');
  });
});

describe('threatFeed.vulnerabilities', () => {
  it("answers a lookup by CVE and by product from the tenant's catalogue", async () => {
    const { org } = await site('Kev');
    const kev = await connector(org, 'cisa-kev', '/kev.json');
    expect((await poll(org, kev)).body.outcome).toBe('ok');
    const viewer = await createUser(org.token, 'VIEWER');

    const byCve = await call('GET', '/api/v1/threat-feed/vulnerabilities', {
      token: viewer.token,
      query: { cve: 'cve-2025-48384' },
    });
    expect(byCve.status, byCve.text).toBe(200);
    expect(byCve.body).toMatchObject({ truncated: false, sources: [feedSource('cisa-kev', `${base}/kev.json`)] });
    expect(byCve.body.matches).toEqual([
      expect.objectContaining({ id: 'CVE-2025-48384', vendor_project: 'Git', product: 'Git' }),
    ]);
    expect(byCve.body.fetched_at).toEqual(expect.any(String));

    const byProduct = await call('GET', '/api/v1/threat-feed/vulnerabilities', {
      token: viewer.token,
      query: { product: 'citrix session', limit: 1 },
    });
    expect(byProduct.body.matches).toHaveLength(1);
    expect(byProduct.body.matches[0].vendor_project).toBe('Citrix');
    expect(byProduct.body.truncated).toBe(true);

    const unknown = await call('GET', '/api/v1/threat-feed/vulnerabilities', {
      token: viewer.token,
      query: { cve: 'CVE-1999-0001' },
    });
    expect(unknown.body.matches).toEqual([]);
    expect((await call('GET', '/api/v1/threat-feed/vulnerabilities', { token: viewer.token })).status).toBe(422);

    // Another tenant, without a connector, reads the public catalogue: not this tenant's source.
    const other = await registerTenant('KevOther');
    const theirs = await call('GET', '/api/v1/threat-feed/vulnerabilities', {
      token: other.token,
      query: { cve: 'CVE-2025-48384' },
    });
    expect(theirs.body).toMatchObject({ sources: ['cisa-kev'] });
  });
});

describe('spaceWeather.get', () => {
  /** Two lines of the tenant: a power line near Oslo (under the oval at Kp 5+) and a cable landing near Dover (south of it). */
  const LINES = {
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        properties: { name: 'Oslo 300 kV' },
        geometry: {
          type: 'LineString',
          coordinates: [
            [10.6, 59.8],
            [10.9, 60.0],
          ],
        },
      },
      {
        type: 'Feature',
        properties: { name: 'Dover landing' },
        geometry: {
          type: 'LineString',
          coordinates: [
            [1.3, 51.1],
            [1.9, 51.2],
          ],
        },
      },
    ],
  };

  it('answers the last Kp, its G-scale and GIC risk, the solar wind, and each line of the tenant by its exposure', async () => {
    const { org, nearId } = await site('SpaceWeather');
    const upload = await uploadMapFile(org.token, nearId, 'lines.geojson', geojsonBytes(LINES));
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    for (const [feed, path] of [
      ['swpc-kp', '/kp-storm.json'],
      ['swpc-plasma', '/plasma.json'],
      ['swpc-mag', '/mag.json'],
    ] as const) {
      const res = await poll(org, await connector(org, feed, path));
      expect(res.body.outcome, `${feed}: ${res.text}`).toBe('ok');
    }

    const res = await call('GET', '/api/v1/space-weather', { token: org.token });
    expect(res.status, res.text).toBe(200);
    const storm = { time: '2026-02-05T03:00:00.000Z', kp: 5.33, cadence: '3h' };
    expect(res.body.kp).toMatchObject({ current: storm, max_24h: storm, stale: true });
    expect(res.body.kp.readings).toHaveLength(8);
    expect(res.body.kp.readings.map((r: any) => r.time)).toEqual(
      [...res.body.kp.readings.map((r: any) => r.time)].sort().reverse(),
    );
    expect(res.body.gic).toMatchObject({ kp: 5.33, g_scale: 'G1', risk: 'low', auroral_edge_magnetic_latitude: 55.34 });
    expect(res.body.gic.effects).toMatch(/weak power grid fluctuations/);

    // The solar wind: the last minute of each capture, and the last hour of the field's Bz.
    const plasma = JSON.parse(DOCS['/plasma.json']!.toString()) as string[][];
    const mag = (JSON.parse(DOCS['/mag.json']!.toString()) as string[][]).slice(1).filter((r) => r[3] !== null);
    const lastPlasma = plasma[plasma.length - 1]!;
    expect(res.body.solar_wind.plasma).toEqual({
      time: `${lastPlasma[0]!.replace(' ', 'T')}Z`,
      density: Number(lastPlasma[1]),
      speed: Number(lastPlasma[2]),
      temperature: Number(lastPlasma[3]),
    });
    const lastHour = mag.slice(-60).map((r) => Number(r[3]));
    expect(res.body.solar_wind.mag).toMatchObject({
      bz_gsm: lastHour[lastHour.length - 1],
      bt: Number(mag[mag.length - 1]![6]),
    });
    expect(res.body.solar_wind.bz_min_1h).toBe(Math.min(...lastHour));
    expect(res.body.solar_wind.southward_minutes_1h).toBe(lastHour.filter((b) => b < 0).length);

    // The Oslo line is under the oval (one level up), the Dover one south of it.
    expect(res.body.conductors_total).toBe(2);
    expect(res.body.conductors).toEqual([
      expect.objectContaining({ name: 'Oslo 300 kV', environment_id: nearId, band: 'auroral', risk: 'moderate' }),
      expect.objectContaining({ name: 'Dover landing', band: 'mid', risk: 'low' }),
    ]);
    expect(res.body.conductors[0].magnetic_latitude).toBeGreaterThan(55.34);
    expect(res.body.conductors[1].magnetic_latitude).toBeLessThan(55.34);
    expect(
      (await call('GET', '/api/v1/space-weather', { token: org.token, query: { conductors: 1 } })).body.conductors,
    ).toHaveLength(1);

    // Another tenant reads the public sources, and none of these lines.
    const other = await registerTenant('SpaceWeatherOther');
    const theirs = await call('GET', '/api/v1/space-weather', { token: other.token });
    expect(theirs.status, theirs.text).toBe(200);
    expect(theirs.body.sources).toEqual({ kp: ['swpc-kp'], plasma: ['swpc-plasma'], mag: ['swpc-mag'] });
    expect(theirs.body.conductors).toEqual([]);
    expect(JSON.stringify(theirs.body)).not.toContain('Oslo 300 kV');
  });

  it('refuses an unknown parameter and a conductor count past its bound', async () => {
    const org = await registerTenant('SpaceWeatherBad');
    expect((await call('GET', '/api/v1/space-weather', { token: org.token, query: { conductors: 201 } })).status).toBe(
      422,
    );
    expect((await call('GET', '/api/v1/space-weather', { token: org.token, query: { kp: 5 } })).status).toBe(422);
    expect((await call('GET', '/api/v1/space-weather', {})).status).toBe(401);
  });
});

describe('threatFeed.indicators', () => {
  it("finds an IP in a listed network, a domain by a subdomain, a URL and a hash in the tenant's lists, and nothing in another tenant's", async () => {
    const { org } = await site('Indicators');
    for (const [feed, path] of [
      ['stix-indicators', '/apt1.json'],
      ['csv-indicators', '/falcon.csv'],
    ] as const) {
      const res = await poll(org, await connector(org, feed, path));
      expect(res.body.outcome, `${feed}: ${res.text}`).toBe('ok');
    }
    const look = (query: Record<string, string | number>, token = org.token) =>
      call('GET', '/api/v1/threat-feed/indicators', { token, query });

    // APT1's STIX bundle lists 223.166.0.0/15: an address inside it matches that network.
    const ip = await look({ ip: '223.167.1.9' });
    expect(ip.status, ip.text).toBe(200);
    expect(ip.body.query).toEqual({ type: 'ip', value: '223.167.1.9' });
    expect(ip.body.matches).toEqual([
      expect.objectContaining({
        type: 'cidr',
        value: '223.166.0.0/15',
        source: expect.objectContaining({ format: 'stix' }),
      }),
    ]);
    expect(ip.body.sources).toHaveLength(2);
    expect((await look({ ip: '223.168.0.1' })).body.matches).toEqual([]);
    // The Stealth Falcon MISP export lists 95.215.44.37 itself.
    expect((await look({ ip: '95.215.44.37' })).body.matches).toEqual([
      expect.objectContaining({ id: 'ip|95.215.44.37|csv', source: expect.objectContaining({ format: 'misp-csv' }) }),
    ]);

    // A subdomain of a listed domain matches it; a look-alike does not.
    expect((await look({ domain: 'mail.Hugesoft.org.' })).body.matches).toEqual([
      expect.objectContaining({ type: 'domain', value: 'hugesoft.org' }),
    ]);
    expect((await look({ domain: 'nothugesoft.org' })).body.matches).toEqual([]);
    // A URL, defanged as analysts write it, and a SHA-256 in capitals.
    expect((await look({ url: 'hxxp://aax[.]me/a6faa' })).body.matches).toEqual([
      expect.objectContaining({ id: 'url|http://aax.me/a6faa|csv' }),
    ]);
    const hash = await look({ hash: '4320204D577EF8B939115D16110E97FF04CB4F7D1E77BA5CE011D43F74ABC7BE' });
    expect(hash.body.query.type).toBe('sha256');
    expect(hash.body.matches).toHaveLength(1);

    // Another tenant has no lists: nothing, from no source.
    const other = await registerTenant('IndicatorsOther');
    expect((await look({ ip: '223.167.1.9' }, other.token)).body).toEqual({
      query: { type: 'ip', value: '223.167.1.9' },
      matches: [],
      truncated: false,
      sources: [],
    });
  });

  it('wants exactly one value, of its kind', async () => {
    const org = await registerTenant('IndicatorsBad');
    const look = (query: Record<string, string>) =>
      call('GET', '/api/v1/threat-feed/indicators', { token: org.token, query });
    expect((await look({})).status).toBe(422);
    expect((await look({ ip: '10.0.0.1', domain: 'example.com' })).status).toBe(422);
    const bad = await look({ ip: 'not-an-ip' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'ip']);
    expect((await look({ hash: 'abc' })).status).toBe(422);
  });
});

describe('the connector-poll worker', () => {
  it("polls a connector on its schedule as the connector's tenant, its own role fenced to the platform's records", async () => {
    // As the local runtime runs it (shared/local/async-workers.ts): the local adapters, and its
    // calls checked against its grants and its own role's platform fence (docs/architecture.md, 27).
    await installLocalAdapters();
    await checkSharedClients();
    const { org } = await site('FeedScheduled');
    const id = await connector(org, 'swpc-kp', '/kp.json');
    const worker = workerById('connector-poll');
    await runAsWorker(worker, () => pollOnSchedule({ tenant_id: org.tenantId, integration_id: id }));
    const res = await call('GET', '/api/v1/connectors', { token: org.token });
    const polled = res.body.items.find((c: { connector_id: string }) => c.connector_id === id);
    expect(polled.status).toMatchObject({ state: 'ok', consecutive_failures: 0, last_error: null });
    expect(polled.status.last_success_at).toBe(polled.status.last_run_at);
    expect(polled.status.last_run_at).not.toBeNull();
  });
});
