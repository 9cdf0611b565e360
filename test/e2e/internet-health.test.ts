/**
 * Internet health end to end, over real HTTP against the local stack: an `rpki-vrps` connector
 * reading a real Routinator export (test/fixtures/feeds/rpki) and a `ris-live` connector reading
 * the real RIS Live capture (test/fixtures/feeds/ripe-ris, BGPKIT's) from a local server that, as
 * RIS Live does, never ends the stream: each poll stops at its window. The capture is replayed
 * now (its `timestamp`s moved to the time the test starts, nothing else changed), as a live stream
 * would carry it.
 *
 * The tenant watches 64.68.236.0/22 (announced by AS13904 in the capture) and 93.175.147.0/24
 * (AS196615's ROA in the export), and AS196615: so the capture's announcement of 64.68.236.0/22 by
 * AS13904 is an unexpected origin, one possible hijack, raised once whatever the polls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRpkiExport } from '../../shared/db/internet-health.js';
import { getObjectBytes } from '../../shared/adapters/s3.js';
import { feedSource } from '../../shared/domain/connectors/feed-sources.js';
import { call, createUser, registerTenant, type RegisteredTenant } from '../support/api.js';
import { until } from '../support/threat-site.js';
import { feedFixture, startFeedServer, type FeedServer } from '../support/feed-server.js';

const START_S = Math.floor(Date.now() / 1000);
/** The capture with its collectors' timestamps moved to now, one second apart, in order. */
const RIS_NOW = Buffer.from(
  feedFixture('ripe-ris/ris-live-messages.bgpkit.ndjson')
    .toString('utf8')
    .split('\n')
    .map((line, i) => line.replace(/"timestamp":\s*[\d.]+/, `"timestamp": ${START_S - 60 + i}.5`))
    .join('\n'),
);
const RPKI = feedFixture('rpki/routinator-json.as196615.2021-07-21.json');

let server: FeedServer;
beforeAll(async () => {
  server = await startFeedServer({ '/rpki.json': RPKI }, { '/ris-live/stream': RIS_NOW });
});
afterAll(() => server.close());

async function feedConnector(org: RegisteredTenant, config: Record<string, unknown>): Promise<string> {
  const res = await call('POST', '/api/v1/integrations', {
    token: org.token,
    body: { name: String(config.feed), kind: 'feed', config },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.integration_id;
}

async function watch(org: RegisteredTenant, entity_type: string, value: string | number) {
  const res = await call('POST', '/api/v1/watchlist/entries', { token: org.token, body: { entity_type, value } });
  expect(res.status, res.text).toBe(201);
}

const poll = (org: RegisteredTenant, id: string) => call('POST', `/api/v1/connectors/${id}/poll`, { token: org.token });

/** A tenant watching two prefixes and AS196615, with both connectors polled twice. */
async function watchingTenant() {
  const org = await registerTenant('Routing');
  await watch(org, 'ip', '64.68.236.0/22');
  await watch(org, 'ip', '93.175.147.0/24');
  await watch(org, 'asn', 196615);
  const rpkiUrl = `${server.base}/rpki.json`;
  const rpki = await feedConnector(org, { feed: 'rpki-vrps', url: rpkiUrl });
  const ris = await feedConnector(org, { feed: 'ris-live', url: `${server.base}/ris-live/stream`, stream_seconds: 2 });
  return { org, rpki, ris, rpkiUrl };
}

let shared: Awaited<ReturnType<typeof watchingTenant>> & {
  polls: Record<string, { status: number; body: any; text: string }[]>;
};

beforeAll(async () => {
  const t = await watchingTenant();
  const polls: Record<string, { status: number; body: any; text: string }[]> = { rpki: [], ris: [] };
  for (let i = 0; i < 2; i++) {
    polls.rpki!.push(await poll(t.org, t.rpki));
    polls.ris!.push(await poll(t.org, t.ris));
  }
  shared = { ...t, polls };
}, 60_000);

describe('connectors.poll of rpki-vrps and ris-live', () => {
  it('keeps the RPKI export as one object, once: a second poll of the same export writes nothing', async () => {
    const [first, second] = shared.polls.rpki!;
    expect(first!.status, first!.text).toBe(200);
    expect(first!.body).toMatchObject({
      outcome: 'ok',
      records: { read: 3, stored: 3, updated: 0, unchanged: 0, skipped: 0 },
    });
    expect(second!.body).toMatchObject({
      outcome: 'ok',
      records: { read: 3, stored: 0, updated: 0, unchanged: 3, skipped: 0 },
    });
    const index = await getRpkiExport(feedSource('rpki-vrps', shared.rpkiUrl));
    expect(index).toMatchObject({
      vrps: 3,
      source_url: shared.rpkiUrl,
      stored_at: first!.body.connector.status.last_run_at,
    });
    const object = await getObjectBytes(index!.object_key);
    expect(object?.length).toBe(index!.object_bytes);
  });

  it("reads the endless RIS stream for its window, keeps the watched prefix's update once, and raises one hijack alert once", async () => {
    const [first, second] = shared.polls.ris!;
    expect(first!.status, first!.text).toBe(200);
    // Of the capture's four updates, one is of a watched prefix (64.68.236.0/22); its third line,
    // a ris_message without a BGP message type, is skipped and said so.
    expect(first!.body).toMatchObject({
      outcome: 'ok',
      error: null,
      records: { read: 1, stored: 1, updated: 0, unchanged: 0, skipped: 1 },
      alerts_raised: 1,
    });
    expect(first!.body.connector.status.last_error).toBe(
      '1 entries skipped; the first: a ris_message with no BGP message type',
    );
    expect(second!.body).toMatchObject({
      outcome: 'ok',
      records: { read: 1, stored: 0, unchanged: 1 },
      alerts_raised: 0,
    });
    expect(second!.body.connector.status).toMatchObject({ state: 'ok', records_stored: 1, alerts_raised: 1 });
    // The stream was asked for the watched prefixes only.
    expect(JSON.parse(String(server.headers['/ris-live/stream']?.['x-ris-subscribe']))).toEqual({
      type: 'UPDATE',
      prefix: ['64.68.236.0/22', '93.175.147.0/24'],
      moreSpecific: true,
      lessSpecific: false,
    });

    const events = await until(
      async () => (await call('GET', '/api/v1/events', { token: shared.org.token, query: { type: 'bgp.alert' } })).body,
      (list) => list.length > 0,
      'the bgp alert',
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'bgp.alert',
      description: expect.stringContaining('64.68.236.0/22 originated by AS13904, expected AS196615'),
      payload: {
        kind: 'possible_hijack',
        rule: 'unexpected_origin',
        prefix: '64.68.236.0/22',
        origin_asn: 13904,
        collector: 'rrc21',
        connector_id: shared.ris,
        rpki: 'not-found',
      },
    });
  });
});

describe('connectors of the routing feeds', () => {
  it('takes stream_seconds and provides_transit for ris-live only, within their bounds', async () => {
    const org = await registerTenant('RoutingConfig');
    const create = (config: Record<string, unknown>) =>
      call('POST', '/api/v1/integrations', { token: org.token, body: { name: 'BGP', kind: 'feed', config } });
    const wrongFeed = await create({ feed: 'rpki-vrps', url: `${server.base}/rpki.json`, stream_seconds: 5 });
    expect(wrongFeed.status).toBe(422);
    expect(wrongFeed.body.detail[0].loc).toEqual(['body', 'config', 'stream_seconds']);
    const tooLong = await create({ feed: 'ris-live', stream_seconds: 60 });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.detail[0].loc).toEqual(['body', 'config', 'stream_seconds']);
    // Without url: RIPE's own stream, and RIS Live's default window.
    const ok = await create({ feed: 'ris-live', provides_transit: true });
    expect(ok.status, ok.text).toBe(201);
    // A test reads the head of an RPKI export (a JSON object), not 128 MB of it; a wrong source fails it.
    const rpki = await feedConnector(org, { feed: 'rpki-vrps', url: `${server.base}/rpki.json` });
    const tested = await call('POST', `/api/v1/integrations/${rpki}/test`, { token: org.token });
    expect(tested.status, tested.text).toBe(200);
    expect(tested.body).toMatchObject({ reachable: true, status_code: 200, error: null });
    const missing = await feedConnector(org, { feed: 'rpki-vrps', url: `${server.base}/nothing.json` });
    expect((await call('POST', `/api/v1/integrations/${missing}/test`, { token: org.token })).body).toMatchObject({
      reachable: false,
      status_code: 404,
      error: 'the server answered 404',
    });
    const listed = await call('GET', '/api/v1/connectors', { token: org.token, query: { feed: 'ris-live' } });
    expect(listed.body.items[0]).toMatchObject({
      feed: 'ris-live',
      // Its query names no credential: shown whole.
      source_url: 'https://ris-live.ripe.net/v1/stream/?format=json&client=gatehouse',
      public_source: true,
      interval_minutes: 5,
    });
  });
});

describe('internetHealth.get', () => {
  it("shows each watched prefix with its RPKI state, last updates and alerts, and the connectors' freshness", async () => {
    const viewer = await createUser(shared.org.token, 'VIEWER');
    const res = await call('GET', '/api/v1/internet-health', { token: viewer.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.asns).toEqual([196615]);
    expect(res.body.alerts).toMatchObject({ possible_hijack: 1, possible_leak: 0, truncated: false });
    const [hijacked, roa] = res.body.prefixes;
    expect(hijacked).toMatchObject({
      prefix: '64.68.236.0/22',
      expected_origins: [196615],
      rpki: [{ asn: 196615, state: 'not-found', covering: [] }],
      alerts: { possible_hijack: 1, possible_leak: 0 },
    });
    expect(hijacked.last_updates).toEqual([
      {
        kind: 'announcement',
        prefix: '64.68.236.0/22',
        time: new Date((START_S - 59) * 1000 + 500).toISOString(),
        collector: 'rrc21',
        peer_asn: 199524,
        path: [199524, 1299, 3356, 13904, 13904, 13904, 13904, 13904, 13904],
        origin_asn: 13904,
      },
    ]);
    expect(roa).toMatchObject({
      prefix: '93.175.147.0/24',
      rpki: [{ asn: 196615, state: 'valid', covering: [{ asn: 196615, prefix: '93.175.147.0/24', max_length: 24 }] }],
      last_updates: [],
      alerts: { possible_hijack: 0, possible_leak: 0 },
    });
    expect(
      res.body.connectors.map((c: { feed: string; state: string; stale: boolean }) => [c.feed, c.state, c.stale]),
    ).toEqual([
      ['rpki-vrps', 'ok', false],
      ['ris-live', 'ok', false],
    ]);
    expect(res.body.rpki_computed_at).not.toBeNull();
  });

  it('answers another tenant with its own (empty) health, and refuses bad input and no credential', async () => {
    const other = await registerTenant('RoutingOther');
    const res = await call('GET', '/api/v1/internet-health', { token: other.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      prefixes: [],
      asns: [],
      alerts: { possible_hijack: 0, possible_leak: 0 },
      connectors: [],
      rpki_computed_at: null,
    });
    const bad = await call('GET', '/api/v1/internet-health', { token: other.token, query: { hours: '0' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'hours']);
    expect((await call('GET', '/api/v1/internet-health')).status).toBe(401);
  });
});

describe('internetHealth.bgpAlerts', () => {
  it("lists the tenant's alerts newest first, filtered by kind, prefix, ASN and time", async () => {
    const list = (query: Record<string, string> = {}) =>
      call('GET', '/api/v1/internet-health/bgp-alerts', { token: shared.org.token, query });
    const all = await list();
    expect(all.status, all.text).toBe(200);
    expect(all.body).toMatchObject({ total: 1, limit: 50, offset: 0, truncated: false });
    expect(all.body.items[0]).toMatchObject({
      kind: 'possible_hijack',
      rule: 'unexpected_origin',
      prefix: '64.68.236.0/22',
      watched_prefix: '64.68.236.0/22',
      origin_asn: 13904,
      peer_asn: 199524,
      id: 'possible_hijack-ris-21-587-22045871-a-64.68.236.0/22',
      connector_id: shared.ris,
    });
    const counts = async (query: Record<string, string>) => (await list(query)).body.total;
    expect(await counts({ kind: 'possible_hijack' })).toBe(1);
    expect(await counts({ kind: 'possible_leak' })).toBe(0);
    expect(await counts({ prefix: '64.68.0.0/16' })).toBe(1);
    expect(await counts({ prefix: '93.175.147.0/24' })).toBe(0);
    expect(await counts({ asn: '13904' })).toBe(1);
    expect(await counts({ asn: '1299' })).toBe(1);
    expect(await counts({ asn: '64500' })).toBe(0);
    expect(await counts({ since: new Date((START_S + 3600) * 1000).toISOString() })).toBe(0);
    expect((await list({ offset: '1' })).body).toMatchObject({ items: [], total: 1, offset: 1 });
  });

  it('shows another tenant none of them, and refuses bad input and no credential', async () => {
    const other = await registerTenant('RoutingAlertsOther');
    const res = await call('GET', '/api/v1/internet-health/bgp-alerts', { token: other.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ items: [], total: 0 });
    for (const [name, value] of [
      ['prefix', '64.68.236.1/22'],
      ['kind', 'outage'],
      ['limit', '0'],
      ['asn', 'AS13904'],
      ['since', 'yesterday'],
    ] as const) {
      const bad = await call('GET', '/api/v1/internet-health/bgp-alerts', {
        token: other.token,
        query: { [name]: value },
      });
      expect(bad.status, `${name}=${value}`).toBe(422);
      expect(bad.body.detail[0].loc).toEqual(['query', name]);
    }
    expect((await call('GET', '/api/v1/internet-health/bgp-alerts')).status).toBe(401);
  });
});
