/**
 * The geopolitical overlay end to end, over real HTTP against the local stack, its connectors
 * polling a local HTTP server that replays real captures (each folder's SOURCES.md under test/fixtures/feeds): the
 * State Department's advisories of 2026-10-07 (North Korea at level 4) and real rows of OFAC's SDN
 * list (the tankers TASCA and NS LEADER by IMO and MMSI, IRIS MAKRAN by IMO), and a list in
 * Gatehouse's own format. Records are stored once (and nothing again on a second poll); the
 * tenant's environment in North Korea shows level 4 and the DPRK programmes; its vessels named on
 * the SDN list are flagged; its watched address in a North Korean network is located there;
 * another tenant sees none of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedRecords } from '../../shared/db/feed-records.js';
import { feedSource } from '../../shared/domain/connectors/feed-sources.js';
import { call, registerTenant, type RegisteredTenant } from '../support/api.js';
import { positionReport, staticReport, type Report } from '../support/ais.js';
import { feedFixture, startFeedServer, type FeedServer } from '../support/feed-server.js';
import { until } from '../support/threat-site.js';

/** The tenant's own list (Gatehouse's format: the format is ours, so the sample is too). */
const OWN_LIST = [
  'country,level,programme,summary,updated,url',
  'NO,1,,Our security team: normal precautions,2026-11-01,',
  'KP,,UN-1718,UN Security Council 1718 Committee sanctions,2026-01-01,https://main.un.org/securitycouncil/en/sanctions/1718',
].join('\n');

const DOCS: Record<string, Buffer> = {
  '/TAsTWs.xml': feedFixture('state-dept-advisories/TAsTWs.2026-10-07.xml'),
  '/sdn.csv': feedFixture('ofac-sdn/sdn.csv'),
  '/geo.csv': Buffer.from(OWN_LIST),
  '/cta-cap-ua.json': feedFixture('canada-advisory/cta-cap-ua.2026-09-24.json'),
};

/** From the SDN sample: TASCA (IMO 9313149, MMSI 352002494), NS LEADER (MMSI 636013272), IRIS MAKRAN (IMO 9486910, no MMSI listed). */
const TASCA = { mmsi: 352002494, imo: 9313149 };
const NS_LEADER = { mmsi: 636013272 };
/** An Iranian MMSI (MID 422) the list does not name, carrying IRIS MAKRAN's IMO number. */
const MAKRAN = { mmsi: 422000017, imo: 9486910 };
/** A Norwegian coaster named on no list. */
const CLEAN = { mmsi: 257123450 };
/** Star Joint Venture's network, 175.45.176.0/22: North Korea in the IP data. */
const PYONGYANG_IP = '175.45.176.1';

let server: FeedServer;
let base: string;
let org: RegisteredTenant;
const connectors: Record<string, string> = {};
const envs: Record<string, string> = {};

const get = (query: Record<string, string> = {}, token = org.token) =>
  call('GET', '/api/v1/geopolitical-risk', { token, query });
const poll = (id: string) => call('POST', `/api/v1/connectors/${id}/poll`, { token: org.token });

async function environment(name: string, country?: string) {
  const res = await call('POST', '/api/v1/environments', {
    token: org.token,
    body: { name, type: 'building', ...(country ? { country } : {}) },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

beforeAll(async () => {
  server = await startFeedServer(DOCS);
  base = server.base;
  org = await registerTenant('Geopolitics');
  for (const [feed, path] of [
    ['state-dept-advisories', '/TAsTWs.xml'],
    ['ofac-sdn', '/sdn.csv'],
    ['geopolitical-list', '/geo.csv'],
    ['canada-advisory', '/cta-cap-ua.json'],
  ] as const) {
    const res = await call('POST', '/api/v1/integrations', {
      token: org.token,
      body: { name: feed, kind: 'feed', config: { feed, url: `${base}${path}` } },
    });
    expect(res.status, res.text).toBe(201);
    connectors[feed] = res.body.integration_id;
  }
  const kp = await environment('Pyongyang liaison office', 'kp');
  expect(kp.country).toBe('KP');
  envs.kp = kp.environment_id;
  envs.no = (await environment('Oslo office', 'NO')).environment_id;
  envs.none = (await environment('Unplaced depot')).environment_id;
  envs.ua = (await environment('Kyiv office', 'UA')).environment_id;
  // Burundi at level 3 (reconsider travel) and Italy at level 2 in the State Department's capture.
  envs.bi = (await environment('Bujumbura depot', 'BI')).environment_id;
  envs.it = (await environment('Milan office', 'IT')).environment_id;

  const sensor = await call('POST', '/api/v1/sensors', {
    token: org.token,
    body: { environment_id: envs.no, name: 'AIS receiver', type: 'ais_receiver', location: { lat: 59.9, lon: 10.7 } },
  });
  expect(sensor.status, sensor.text).toBe(201);
  const at = new Date(Date.now() - 10 * 60_000);
  const reports: Report[] = [
    staticReport(TASCA.mmsi, at, {
      name: 'TASCA',
      callsign: '3E2647',
      imo: TASCA.imo,
      cargo: 80,
      destination: 'FUJAIRAH',
    }),
    positionReport(TASCA.mmsi, at, { lat: 25.1, lon: 56.4, sog: 11, cog: 90 }),
    positionReport(NS_LEADER.mmsi, at, { lat: 59.6, lon: 10.6, sog: 9, cog: 180 }),
    staticReport(MAKRAN.mmsi, at, {
      name: 'MAKRAN',
      callsign: 'EPAA',
      imo: MAKRAN.imo,
      cargo: 35,
      destination: 'BANDAR ABBAS',
    }),
    positionReport(MAKRAN.mmsi, at, { lat: 26.9, lon: 56.2, sog: 5, cog: 45 }),
    positionReport(CLEAN.mmsi, at, { lat: 59.8, lon: 10.7, sog: 7, cog: 10 }),
  ];
  const events = reports.map((r) => ({
    type: 'ais.position',
    sensor_id: sensor.body.sensor_id,
    occurred_at: r.at.toISOString(),
    payload: { nmea: r.nmea.length === 1 ? r.nmea[0] : r.nmea },
  }));
  const sent = await call('POST', '/api/v1/events/batch', { token: org.token, body: { events } });
  expect(sent.status, sent.text).toBe(201);
  for (const body of [
    { entity_type: 'vessel', value: String(NS_LEADER.mmsi) },
    { entity_type: 'ip', value: PYONGYANG_IP, label: 'Beacon' },
    { entity_type: 'ip', value: '10.0.0.0/8' },
  ]) {
    const res = await call('POST', '/api/v1/watchlist/entries', { token: org.token, body });
    expect(res.status, res.text).toBe(201);
  }
}, 60_000);
afterAll(() => server.close());

describe('geopolitical connectors', () => {
  it('store each source once, and nothing again after a second poll', async () => {
    // Each document's records and its manifest (what it lists now).
    // Alerts: North Korea at level 4 and Burundi at level 3 (State Department), Ukraine at level 4 (Canada) have an environment each; Italy's level 2 and Norway's level 1 do not alert.
    const expected = {
      'state-dept-advisories': { read: 10, skipped: 1, alerts: 2 },
      'ofac-sdn': { read: 36, skipped: 0, alerts: 0 },
      'geopolitical-list': { read: 3, skipped: 0, alerts: 0 },
      'canada-advisory': { read: 2, skipped: 0, alerts: 1 },
    };
    for (const [feed, { read, skipped, alerts }] of Object.entries(expected)) {
      const first = await poll(connectors[feed]!);
      expect(first.status, first.text).toBe(200);
      expect(first.body.outcome, feed).toBe('ok');
      expect(first.body.records, feed).toEqual({ read, stored: read, updated: 0, unchanged: 0, skipped });
      expect(first.body.alerts_raised, feed).toBe(alerts);
      const second = await poll(connectors[feed]!);
      expect(second.body.records, feed).toEqual({ read, stored: 0, updated: 0, unchanged: read, skipped });
      expect(second.body.alerts_raised, feed).toBe(0);
    }
    // Cuba's item names no ISO code: the status says so rather than guessing from its FIPS tag.
    const status = (
      await call('GET', '/api/v1/connectors', { token: org.token, query: { feed: 'state-dept-advisories' } })
    ).body.items[0].status;
    expect(status.last_error).toMatch(/^1 entries skipped; the first: the address names no ISO country \(Cuba/);
    const kept = await feedRecords<{ id: string }>(feedSource('ofac-sdn', `${base}/sdn.csv`), 1000);
    expect(kept).toHaveLength(36);
    expect(new Set(kept.map((r) => r.id)).size).toBe(36);
  });
});

describe('advisory alerts', () => {
  it('raise a hazard.alert once for each environment in a country at level 3 or 4, with the advisory, and none at levels 1 and 2', async () => {
    const advisoryAlerts = async () =>
      (
        (await call('GET', '/api/v1/events', { token: org.token, query: { type: 'hazard.alert', limit: 100 } }))
          .body as any[]
      ).filter((e) => e.payload.hazard === 'travel_advisory');
    // The announcer worker stores them moments after the polls.
    const alerts = await until(
      advisoryAlerts,
      (list: any[]) => list.length >= 3,
      'the advisory alerts to be stored',
      30_000,
    );
    expect(
      alerts.map((e) => [e.environment_id, e.payload.country, e.payload.advisory_level, e.payload.source]).sort(),
    ).toEqual(
      [
        [envs.kp, 'KP', 4, 'us-state-dept'],
        [envs.bi, 'BI', 3, 'us-state-dept'],
        [envs.ua, 'UA', 4, 'ca-gac'],
      ].sort(),
    );
    const kp = alerts.find((e) => e.environment_id === envs.kp);
    expect(kp.description).toBe(
      'Travel advisory level 4 (Do not travel) for KP, where Pyongyang liaison office is: North Korea - Level 4: Do Not Travel',
    );
    expect(kp.payload).toMatchObject({
      feed: 'state-dept-advisories',
      connector_id: connectors['state-dept-advisories'],
      updated: '2025-04-29T00:00:00.000Z',
    });
    // Polled again: nothing more.
    expect((await poll(connectors['canada-advisory']!)).body.alerts_raised).toBe(0);
    expect(await advisoryAlerts()).toHaveLength(3);
  });
});

describe('geopoliticalRisk.get', () => {
  it('lays the advisories and sanctions over the environments, the vessels and the watched addresses', async () => {
    const answer = await until(
      async () => (await get()).body,
      (b: any) =>
        b.vessels?.length === 4 &&
        b.vessels.some((v: any) => v.imo === String(TASCA.imo)) &&
        b.vessels.some((v: any) => v.imo === String(MAKRAN.imo)),
      'the vessels to be tracked',
      30_000,
    );
    // The environment in North Korea: level 4 (State Department) and sanctions (OFAC's DPRK3, the own list's UN-1718).
    expect(answer.environments).toEqual(
      expect.arrayContaining([
        {
          environment_id: envs.kp,
          name: 'Pyongyang liaison office',
          type: 'building',
          country: 'KP',
          level: 4,
          sanctioned_country: true,
        },
        {
          environment_id: envs.no,
          name: 'Oslo office',
          type: 'building',
          country: 'NO',
          level: 1,
          sanctioned_country: false,
        },
        {
          environment_id: envs.none,
          name: 'Unplaced depot',
          type: 'building',
          country: null,
          level: null,
          sanctioned_country: false,
        },
        // Ukraine: no State Department item in the trimmed capture; Canada's document says avoid all travel.
        {
          environment_id: envs.ua,
          name: 'Kyiv office',
          type: 'building',
          country: 'UA',
          level: 4,
          sanctioned_country: false,
        },
      ]),
    );
    expect(answer.countries.find((c: any) => c.country === 'UA').advisories).toEqual([
      expect.objectContaining({
        level: 4,
        title: 'Ukraine - Avoid all travel',
        source: 'ca-gac',
        url: 'https://travel.gc.ca/destinations/ukraine',
      }),
    ]);
    const kp = answer.countries.find((c: any) => c.country === 'KP');
    expect(kp.level).toBe(4);
    expect(kp.advisories).toEqual([
      expect.objectContaining({
        level: 4,
        title: 'North Korea - Level 4: Do Not Travel',
        source: 'us-state-dept',
        updated: '2025-04-29T00:00:00.000Z',
      }),
    ]);
    expect(kp.sanctions.map((s: any) => [s.programme, s.source]).sort()).toEqual([
      ['DPRK3', 'ofac-sdn'],
      ['UN-1718', 'list'],
    ]);

    // Vessels: the sanctioned first; TASCA by both identifiers, NS LEADER by MMSI (watched, its MMSI
    // Liberian while OFAC lists it under Gabon), the Iranian MMSI carrying IRIS MAKRAN's IMO number by IMO.
    const byMmsi = Object.fromEntries(answer.vessels.map((v: any) => [v.mmsi, v]));
    expect(answer.vessels.map((v: any) => v.sanctioned)).toEqual([true, true, true, false]);
    expect(byMmsi[String(TASCA.mmsi)]).toMatchObject({
      name: 'TASCA',
      imo: '9313149',
      country: 'PA',
      sanctioned: true,
      watched: false,
      listings: [
        {
          listing_id: '52327',
          name: 'TASCA',
          programmes: ['IRAN-EO13846'],
          matched_by: ['imo', 'mmsi'],
          listed_flag: 'PA',
          listed_flag_name: 'Panama',
          source: 'ofac-sdn',
        },
      ],
    });
    expect(byMmsi[String(NS_LEADER.mmsi)]).toMatchObject({
      country: 'LR',
      watched: true,
      sanctioned: true,
      listings: [expect.objectContaining({ name: 'NS LEADER', matched_by: ['mmsi'], listed_flag: 'GA' })],
    });
    expect(byMmsi[String(MAKRAN.mmsi)]).toMatchObject({
      country: 'IR',
      sanctioned_country: true,
      sanctioned: true,
      listings: [expect.objectContaining({ listing_id: '40716', matched_by: ['imo'] })],
    });
    expect(byMmsi[String(CLEAN.mmsi)]).toMatchObject({ country: 'NO', level: 1, sanctioned: false, listings: [] });

    // Watched addresses: the North Korean one located there; a private range not located.
    expect(answer.ips).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          value: PYONGYANG_IP,
          label: 'Beacon',
          located: true,
          country: 'KP',
          level: 4,
          sanctioned_country: true,
        }),
        expect.objectContaining({ value: '10.0.0.0/8', located: false, country: null, level: null }),
      ]),
    );
    expect(answer.sources.advisories).toHaveLength(3);
  });

  it('narrows everything to one country with country=', async () => {
    const res = await get({ country: 'kp' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.country).toBe('KP');
    expect(res.body.countries.map((c: any) => c.country)).toEqual(['KP']);
    expect(res.body.environments.map((e: any) => e.environment_id)).toEqual([envs.kp]);
    expect(res.body.vessels).toEqual([]);
    expect(res.body.ips.map((i: any) => i.value)).toEqual([PYONGYANG_IP]);
    const iran = await get({ country: 'IR' });
    expect(iran.body.vessels.map((v: any) => v.mmsi)).toEqual([String(MAKRAN.mmsi)]);
    expect(iran.body.countries[0]).toMatchObject({ country: 'IR', level: null });
    expect(iran.body.countries[0].sanctions.map((s: any) => s.programme).sort()).toEqual([
      'IFSR',
      'IRAN',
      'IRAN-CON-ARMS-EO',
      'IRAN-EO13846',
      'IRGC',
    ]);
  });

  it('stops flagging a vessel and a programme once the list no longer names them', async () => {
    // The same capture without TASCA's row (listing 52327, the sample's only IRAN-EO13846 entry).
    const before = DOCS['/sdn.csv']!;
    DOCS['/sdn.csv'] = Buffer.from(
      before
        .toString('utf8')
        .split('\r\n')
        .filter((row) => !row.startsWith('52327,'))
        .join('\r\n'),
    );
    try {
      const res = await poll(connectors['ofac-sdn']!);
      expect(res.body.outcome, res.text).toBe('ok');
      expect(res.body.records).toMatchObject({ read: 32, stored: 0, updated: 1, skipped: 0 });
      const now = (await get({ country: 'PA' })).body;
      expect(now.vessels).toEqual([
        expect.objectContaining({ mmsi: String(TASCA.mmsi), sanctioned: false, listings: [] }),
      ]);
      const iran = (await get({ country: 'IR' })).body.countries[0];
      expect(iran.sanctions.map((s: any) => s.programme)).not.toContain('IRAN-EO13846');
      expect(iran.sanctions.find((s: any) => s.programme === 'IFSR')).toMatchObject({ listed: 4 });
    } finally {
      DOCS['/sdn.csv'] = before;
      expect((await poll(connectors['ofac-sdn']!)).body.outcome).toBe('ok');
    }
    expect((await get({ country: 'PA' })).body.vessels[0]).toMatchObject({ sanctioned: true });
  });

  it("shows another tenant none of the first tenant's environments, vessels, addresses or list", async () => {
    const other = await registerTenant('GeopoliticsOther');
    const mine = await call('POST', '/api/v1/environments', {
      token: other.token,
      body: { name: 'Kaesong annex', type: 'building', country: 'KP' },
    });
    expect(mine.status, mine.text).toBe(201);
    const res = await get({}, other.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.environments.map((e: any) => e.name)).toEqual(['Kaesong annex']);
    expect(res.body.vessels).toEqual([]);
    expect(res.body.ips).toEqual([]);
    // It reads the public feeds (nothing polled here), not the first tenant's sources.
    expect(res.body.sources).toEqual({ advisories: ['state-dept-advisories'], sanctions: ['ofac-sdn'] });
    expect(res.body.countries).toEqual([{ country: 'KP', level: null, advisories: [], sanctions: [] }]);
    expect(JSON.stringify(res.body)).not.toContain('Pyongyang liaison office');
    expect(JSON.stringify(res.body)).not.toContain('UN-1718');
  });

  it('refuses a country that is not an ISO code, an unknown parameter, and no credential', async () => {
    const uk = await get({ country: 'UK' });
    expect(uk.status).toBe(422);
    expect(uk.body.detail).toEqual([
      {
        loc: ['query', 'country'],
        msg: 'must be an ISO 3166-1 alpha-2 country code (the United Kingdom is GB)',
        type: 'country',
      },
    ]);
    expect((await get({ country: 'KOR' })).status).toBe(422);
    expect((await get({ region: 'EU' })).status).toBe(422);
    expect((await call('GET', '/api/v1/geopolitical-risk', {})).status).toBe(401);
    const env = await call('POST', '/api/v1/environments', {
      token: org.token,
      body: { name: 'London', type: 'building', country: 'UK' },
    });
    expect(env.status).toBe(422);
    expect(env.body.detail[0].loc).toEqual(['body', 'country']);
    const moved = await call('PATCH', `/api/v1/environments/${envs.none}`, {
      token: org.token,
      body: { country: 'gb' },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.country).toBe('GB');
  });
});
