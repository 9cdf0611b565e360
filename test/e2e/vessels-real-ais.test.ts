/**
 * Real vessels, from the test data of public AIS decoders (test/fixtures/ais/README.md): gpsd's
 * sample.aivdm and two of its regression logs (one a live capture where positions and static
 * reports mix), and the sentences of pyais's and libais's tests. Each file is fed, as a receiver's
 * software would hand it on (one raw message an event, all sent as `ais.position`), through
 * POST /api/v1/events/batch; then every vessel's profile must name it as the source's own decode
 * does. The expected values below are copied from those decodes (gpsd's `.chk` JSON, the
 * assertions of pyais's and libais's tests), not from our decoder. In them, `@` is AIS text
 * padding (the name ends at the first one), and an IMO number or ship type of 0 means "not
 * available" (null here).
 */
import { PIPELINE_WAIT_MS } from '../support/pipeline.js';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, registerTenant, type RegisteredTenant } from '../support/api.js';
import { aisReceiver } from '../support/ais.js';
import { aisMessagesOf } from '../support/nmea-feed.js';
import { until } from '../support/threat-site.js';

interface Identity {
  name?: string | null;
  call_sign?: string | null;
  imo?: number | null;
  ship_type?: number | null;
}

/** What each source says, by file and MMSI: only the fields the source states. */
const EXPECTED: Record<string, Record<string, Identity>> = {
  // gpsd test/sample.aivdm.js.chk
  'gpsd-sample.aivdm': {
    '351759000': { name: 'EVER DIADEM', call_sign: '3FOF8', imo: 9134270, ship_type: 70 },
    '367059850': { name: 'CAPT.J.RIMES', ship_type: 70 },
    '271041815': { name: 'PROGUY', call_sign: 'TC6163', ship_type: 60 },
    '271040660': { name: 'GOZDEM-1', call_sign: 'YM5504', ship_type: 37 },
    '271010059': { name: 'HEALTH CONTROL 13', call_sign: 'TCA2350', imo: null, ship_type: 55 },
  },
  // gpsd test/daemon/ais-raw-messages.log.chk
  'gpsd-ais-raw-messages.log': {
    '237201800': { name: 'VERGINA', call_sign: 'SX4314', imo: null, ship_type: 52 },
    '247431600': { name: 'LADY RINA', call_sign: 'IBUJ', imo: 9631383, ship_type: 80 },
    '237660700': { name: 'ALBATROSS', call_sign: 'SY3514', imo: null, ship_type: 36 },
    '239575000': { name: 'BLUE HORIZON', call_sign: 'SWPG', imo: 8616336, ship_type: 60 },
    '249971000': { name: 'CHRYSOPIGI', call_sign: '9HA4454', imo: 9303728, ship_type: 89 },
    '368256470': { name: 'MA BELLE', call_sign: 'WDM9849', ship_type: 37 },
  },
  // gpsd test/daemon/ais_unpack_sixbit.log.chk
  'gpsd-ais_unpack_sixbit.log': {
    '244660390': { name: 'LAHRINGEN', call_sign: 'PB4664', imo: null, ship_type: 70 },
    '244538000': { name: 'ARCTIC SUNRISE', call_sign: 'PE6851', imo: 7382902, ship_type: 38 },
    '367438020': { name: 'WILLAMETTE CHAMPION', call_sign: 'WDF3270', imo: null, ship_type: 31 },
    '214181421': { name: 'ALIZE', call_sign: 'ERNU', imo: 8519954, ship_type: 70 },
    '244730351': { name: 'WILJO', call_sign: 'PI4424', imo: null, ship_type: 99 },
    '244630162': { name: 'DILIGENTIA', call_sign: 'PE6235', imo: null, ship_type: 79 },
    '413778459': { name: 'YUXINHUO10388', ship_type: 70 },
    '413990342': { name: 'GUIGANG GANGTAI 889', ship_type: 70 },
    '525003057': { name: 'HASNUR_05', call_sign: 'YD3747', ship_type: 52 },
  },
  // pyais tests/test_decode_raw.py and tests/test_decode.py
  'pyais-tests.nmea': {
    '210035000': { name: 'NORDIC HAMBURG', call_sign: '5BXT2' },
    '368008030': { call_sign: 'WDJ7574', ship_type: 37 },
    // callsign "" in the test
    '338091445': { call_sign: null, ship_type: 37 },
  },
  // libais src/test/ais5_test.cpp, ais19_test.cpp, ais24_test.cpp, test/test_data.py, test/data/typeexamples.json
  'libais-tests.nmea': {
    '367525510': { name: 'BRAZOS EXPRESS', call_sign: 'WDG3387', imo: 8206870, ship_type: 90 },
    '367487570': { name: 'BRADSHAW MCKEE', ship_type: 52 },
    '273347120': { name: 'EKO-FLOT' },
    '412558988': { name: '10JQKA' },
    '002512001': { call_sign: 'PILOT', ship_type: 53 },
    // Sent as part B with part A's length and content; libais reads it as part A.
    '413000007': { name: 'LAI XUN 11401' },
    '205488090': { name: 'GUATEMALA', call_sign: 'OT4880', imo: null, ship_type: 107 },
    '525015117': { name: 'JASA SETIA', ship_type: 70 },
    // callsign "@@@@@@@" in the test
    '261011240': { call_sign: null, ship_type: 57 },
    '249190000': { name: 'RUTH THERESA', call_sign: '9HMQ9', imo: 9383663, ship_type: 80 },
    '366764000': { name: 'R/V GULF CHALLENGER' },
  },
};
const ALL = Object.values(EXPECTED).flatMap((vessels) => Object.entries(vessels));
const EXPECTED_BY_MMSI = new Map(ALL);
/** Vessels of the files that sent static data and never a position. */
const STATIC_ONLY = ['351759000', '271041815', '271010059', '237201800', '210035000', '367525510', '273347120'];

let org: RegisteredTenant;
const profiles = new Map<string, { status: number; body: any }>();

/** gpsd's first sample sentence, a type 1 position report. */
const LAST = { mmsi: '371798000', nmea: '!AIVDM,1,1,,A,15RTgt0PAso;90TKcjM8h6g208CQ,0*4A' };

const identityOf = (body: any, wanted: Identity) =>
  body?.identity ? Object.fromEntries(Object.keys(wanted).map((k) => [k, body.identity[k]])) : null;

beforeAll(async () => {
  org = await registerTenant('Real AIS');
  const sensorId = await aisReceiver(org.token);
  // One receiver's feed: the files one after the other, a message a second, each as it came; at
  // its end, the first position report of gpsd's sample again (its vessel's second report).
  // 45 minutes ago: past the 30-minute gap, so the vessels with positions are dark now.
  const start = Date.now() - 45 * 60_000;
  const messages = [
    ...Object.keys(EXPECTED).flatMap((file) => aisMessagesOf(readFileSync(`test/fixtures/ais/${file}`, 'utf8'))),
    [LAST.nmea],
  ];
  const events = messages.map((nmea, i) => ({
    type: 'ais.position',
    sensor_id: sensorId,
    occurred_at: new Date(start + i * 1000).toISOString(),
    payload: { nmea: nmea.length === 1 ? nmea[0] : nmea },
  }));
  for (let i = 0; i < events.length; i += 100) {
    const res = await call('POST', '/api/v1/events/batch', {
      token: org.token,
      body: { events: events.slice(i, i + 100) },
    });
    expect(res.status, res.text).toBe(201);
  }
  // The tracker works from the table's stream, in the order the events were stored, moments
  // after: once the last one is tracked, so is the rest. Asked once a second (the plan's rate is
  // 100 requests a minute).
  await until(
    async () => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      return (await call('GET', `/api/v1/vessels/${LAST.mmsi}`, { token: org.token })).body;
    },
    (b: any) => b.track?.positions === 2,
    'the last report to be tracked',
    PIPELINE_WAIT_MS,
  );
  for (const [mmsi] of ALL) profiles.set(mmsi, await call('GET', `/api/v1/vessels/${mmsi}`, { token: org.token }));
}, 120_000);

describe('vessels.get, for the real vessels of public decoders’ test data', () => {
  it.each(Object.keys(EXPECTED))('names each vessel of %s as the source does', (file) => {
    const answered = Object.fromEntries(
      Object.entries(EXPECTED[file]!).map(([mmsi, wanted]) => {
        const p = profiles.get(mmsi);
        return [mmsi, p?.status === 200 ? identityOf(p.body, wanted) : `${p?.status}: ${p?.body?.detail}`];
      }),
    );
    expect(answered).toEqual(EXPECTED[file]);
  });

  it('answers a vessel known only from static data with its identity, and says it has no position yet', () => {
    for (const mmsi of STATIC_ONLY) {
      const { body } = profiles.get(mmsi)!;
      expect(body.last_position, mmsi).toBeNull();
      expect(body.last_seen, mmsi).toBeNull();
      expect(body.track.positions, mmsi).toBe(0);
      expect(body.notes.join(' '), mmsi).toMatch(/No position report received yet/);
      expect(body.notes.join(' '), mmsi).not.toMatch(/No static data/);
    }
  });

  it('lists a vessel known only from static data among those heard, but not among the dark ones', async () => {
    const listed = await call('GET', '/api/v1/vessels', { token: org.token, query: { hours: 1, limit: 200 } });
    expect(listed.status, listed.text).toBe(200);
    const items: any[] = Array.isArray(listed.body) ? listed.body : listed.body.items;
    const byMmsi = new Map(items.map((v) => [v.mmsi, v]));
    for (const mmsi of STATIC_ONLY) {
      expect(byMmsi.get(mmsi), mmsi).toMatchObject({ last_seen: null, last_position: null, silent_minutes: null });
      expect(byMmsi.get(mmsi).name, mmsi).toBe(EXPECTED_BY_MMSI.get(mmsi)?.name ?? byMmsi.get(mmsi).name);
    }
    // Heard 45 minutes ago, past the gap that makes a vessel with positions dark: still not dark.
    const dark = await call('GET', '/api/v1/vessels/dark', { token: org.token, query: { kind: 'dark', hours: 1 } });
    expect(dark.status, dark.text).toBe(200);
    const darkNow = (dark.body.dark_now as { mmsi: string }[]).map((v) => v.mmsi);
    expect(darkNow.filter((m) => STATIC_ONLY.includes(m))).toEqual([]);
    expect(darkNow.length).toBeGreaterThan(0);
  });

  it('keeps the identity a type 19 report carries with its position', () => {
    const { body } = profiles.get('367059850')!;
    expect(body.identity).toMatchObject({ name: 'CAPT.J.RIMES', ship_type: 70, length_m: 26, beam_m: 8 });
    expect(body.last_position.lat).toBeCloseTo(29.543695, 5);
  });
});

describe('vessels.get, from a feed that hands on one sentence an event', () => {
  it("joins the parts of a type 5 report sent as events of their own, and names each vessel as gpsd's decode does", async () => {
    const other = await registerTenant('Sentence feed');
    const env = await call('POST', '/api/v1/environments', {
      token: other.token,
      body: { name: 'Quay', type: 'port' },
    });
    const sensor = await call('POST', '/api/v1/sensors', {
      token: other.token,
      body: {
        environment_id: env.body.environment_id,
        name: 'Receiver',
        type: 'ais_receiver',
        location: { lat: 37.8, lon: -122.4 },
      },
    });
    expect(sensor.status, sensor.text).toBe(201);
    // gpsd's sample.aivdm line by line: each sentence its own event, as a raw line feed sends it.
    const sentences = readFileSync('test/fixtures/ais/gpsd-sample.aivdm', 'utf8')
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => /^!..VD[MO],/.test(l.replace(/^\\[^\\]*\\/, '')));
    const start = Date.now() - 10 * 60_000;
    const events = sentences.map((nmea, i) => ({
      type: 'ais.position',
      sensor_id: sensor.body.sensor_id,
      occurred_at: new Date(start + i * 1000).toISOString(),
      payload: { nmea },
    }));
    for (let i = 0; i < events.length; i += 100) {
      const res = await call('POST', '/api/v1/events/batch', {
        token: other.token,
        body: { events: events.slice(i, i + 100) },
      });
      expect(res.status, res.text).toBe(201);
    }
    const wanted = EXPECTED['gpsd-sample.aivdm']!;
    for (const [mmsi, identity] of Object.entries(wanted)) {
      const profile = await until(
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          return call('GET', `/api/v1/vessels/${mmsi}`, { token: other.token });
        },
        (r: any) => r.status === 200 && r.body.identity?.name != null,
        `the identity of ${mmsi}`,
        30_000,
      ).catch((err: unknown) => ({ status: 0, body: String(err) }));
      expect(profile.status === 200 ? identityOf(profile.body, identity) : profile.body, mmsi).toEqual(identity);
    }
  }, 90_000);
});

describe('vessels.get, with static data a client decoded itself', () => {
  it('takes a decoded type 5 report sent as ais.position after the positions, as a mixed feed does', async () => {
    const other = await registerTenant('Decoding client');
    // The log's raw sentences but its type 5 reports (payload starting with "5"), then gpsd's own
    // decodes of two of them (test/daemon/ais-raw-messages.log.chk), all as ais.position.
    const decoded = [
      { mmsi: '239575000', name: 'BLUE HORIZON', call_sign: 'SWPG', imo: 8616336, ship_type: 60 },
      { mmsi: '249971000', name: 'CHRYSOPIGI', call_sign: '9HA4454', imo: 9303728, ship_type: 89 },
    ];
    const start = Date.now() - 10 * 60_000;
    const feed = aisMessagesOf(readFileSync('test/fixtures/ais/gpsd-ais-raw-messages.log', 'utf8')).filter(
      (nmea) => !nmea[0]!.split(',')[5]!.startsWith('5'),
    );
    const events = [
      ...feed.map((nmea) => ({ payload: { nmea: nmea.length === 1 ? nmea[0] : nmea } })),
      ...decoded.map((payload) => ({ payload })),
    ].map((e, i) => ({ type: 'ais.position', occurred_at: new Date(start + i * 1000).toISOString(), ...e }));
    for (let i = 0; i < events.length; i += 100) {
      const res = await call('POST', '/api/v1/events/batch', {
        token: other.token,
        body: { events: events.slice(i, i + 100) },
      });
      expect(res.status, res.text).toBe(201);
    }
    for (const { mmsi, ...identity } of decoded) {
      const profile = await until(
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          return (await call('GET', `/api/v1/vessels/${mmsi}`, { token: other.token })).body;
        },
        (b: any) => b.identity !== null && b.identity !== undefined,
        `the identity of ${mmsi}`,
        30_000,
      ).catch((err: unknown) => String(err));
      expect(typeof profile === 'string' ? profile : profile.identity, mmsi).toMatchObject(identity);
    }
  }, 90_000);
});
