/**
 * BGP: RIS Live messages and RPKI VRP exports parsed from real samples, RFC 6811 validation over
 * real VRPs, and the hijack and leak rules over real updates (the watch lists are the test's).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectRoutingAlerts } from '../../shared/feeds/bgp-alerts.js';
import { FeedFormatError } from '../../shared/feeds/feed-document.js';
import { parseRisLive, RIS_LIVE_URL } from '../../shared/feeds/ripe-ris.js';
import { parseRpkiVrps, RPKI_VRPS_URL, vrpIndex } from '../../shared/feeds/rpki-vrps.js';

const read = (p: string) => readFileSync(new URL(`../fixtures/feeds/${p}`, import.meta.url), 'utf8');
const RIS = read('ripe-ris/ris-live-messages.bgpkit.ndjson');
const VRPS = read('rpki/routinator-json.as196615.2021-07-21.json');
const VRPS_FULL = read('rpki/routinator-json.full-members.2023-05-30.json');
const updates = () => parseRisLive(RIS, RIS_LIVE_URL).records;

describe('parseRisLive', () => {
  it('turns each UPDATE into one record per prefix, with peer, path and origin AS', () => {
    const { records, problems } = parseRisLive(RIS, RIS_LIVE_URL);
    expect(records.map((r) => [r.kind, r.prefix, r.origin_asn, r.collector])).toEqual([
      ['announcement', '2602:fd9e:f00::/40', 397666, 'rrc20'],
      ['announcement', '64.68.236.0/22', 13904, 'rrc21'],
      ['announcement', '102.66.116.0/24', 328471, 'rrc01'],
      // Raw: "withdrawals": [ "2605:de00:bb:0:0:0:0:0/48" ], written canonically.
      ['withdrawal', '2605:de00:bb::/48', null, 'rrc25.ripe.net'],
    ]);
    // Raw: {"timestamp":1636247118.76,"peer":"2001:7f8:24::82","peer_asn":"58299","id":"20-5761-238131559","host":"rrc20","type":"UPDATE",
    // "path":[58299,49981,397666],"announcements":[{"next_hop":"2001:7f8:24::82","prefixes":["2602:fd9e:f00::/40"]},{"next_hop":"fe80::768e:f8ff:fea6:b2c4","prefixes":["2602:fd9e:f00::/40"]}],...}
    expect(records[0]).toEqual({
      id: 'ris-20-5761-238131559-a-2602:fd9e:f00::/40',
      kind: 'announcement',
      prefix: '2602:fd9e:f00::/40',
      time: '2021-11-07T01:05:18.760Z',
      collector: 'rrc20',
      peer: '2001:7f8:24::82',
      peer_asn: 58299,
      path: [58299, 49981, 397666],
      origin_asn: 397666,
      next_hops: ['2001:7f8:24::82', 'fe80::768e:f8ff:fea6:b2c4'],
      message_id: '20-5761-238131559',
      source_url: RIS_LIVE_URL,
    });
    expect(records[3]).toMatchObject({ path: null, peer_asn: 13781, time: '2025-02-26T09:24:17.910Z' });
    // Raw: {"type": "ris_message","data":{"timestamp":1636339375.83,"peer":"37.49.236.1","peer_asn":"8218","id":"21-594-37970252","host":"rrc21"}}
    expect(problems).toEqual([{ entry: 2, id: '21-594-37970252', reason: 'a ris_message with no BGP message type' }]);
  });

  it('gives the same ids on every read, and in a JSON array as in JSON lines', () => {
    const ids = updates().map((r) => r.id);
    expect(parseRisLive(RIS, RIS_LIVE_URL).records.map((r) => r.id)).toEqual(ids);
    const asArray = `[${RIS.trim().split('\n').join(',')}]`;
    expect(parseRisLive(asArray, RIS_LIVE_URL).records.map((r) => r.id)).toEqual(ids);
  });

  it('names a broken line and keeps the rest; passes over messages that are not routing changes', () => {
    const lines = RIS.trim().split('\n');
    const bad = [
      lines[0]!.replace('"peer_asn":"58299"', '"peer_asn":"AS-X"'),
      lines[1]!.replace('"64.68.236.0/22"', '"64.68.236.1/22"'),
      '{"type": "ris_message"',
      '{"type":"ris_message","data":{"timestamp":1636339375.83,"peer":"37.49.236.1","peer_asn":"8218","host":"rrc21","type":"KEEPALIVE"}}',
      '{"type":"pong","data":null}',
      lines[3]!,
      lines[3]!,
      lines[4]!,
    ];
    const { records, problems } = parseRisLive(bad.join('\n'), RIS_LIVE_URL);
    expect(records.map((r) => r.prefix)).toEqual(['102.66.116.0/24', '2605:de00:bb::/48']);
    expect(problems.map((p) => [p.entry, p.reason])).toEqual([
      [0, 'peer_asn is not an AS number ("AS-X")'],
      [1, 'announced prefix is not a prefix ("64.68.236.1/22")'],
      [2, 'not JSON ("{\\"type\\": \\"ris_message\\"")'],
      [6, 'the same update twice'],
    ]);
  });

  it('throws for a body that is not RIS Live', () => {
    expect(() => parseRisLive('<html><body>502</body></html>', RIS_LIVE_URL)).toThrow(/HTML/);
    expect(() => parseRisLive(VRPS, RIS_LIVE_URL)).toThrow(FeedFormatError);
    expect(() => parseRisLive('{"foo":1}\n{"bar":2}', RIS_LIVE_URL)).toThrow(/no line is a RIS Live message/);
    expect(parseRisLive('', RIS_LIVE_URL)).toEqual({ records: [], problems: [] });
  });
});

describe('parseRpkiVrps and RFC 6811 validation', () => {
  it("reads Routinator's JSON export, and ignores its other members", () => {
    const { records, problems } = parseRpkiVrps(VRPS, RPKI_VRPS_URL);
    expect(problems).toEqual([]);
    expect(records).toEqual([
      {
        id: 'vrp-196615-2001:7fb:fd03::/48-48',
        asn: 196615,
        prefix: '2001:7fb:fd03::/48',
        max_length: 48,
        ta: 'ripe',
        source_url: RPKI_VRPS_URL,
      },
      {
        id: 'vrp-196615-2001:7fb:fd04::/48-48',
        asn: 196615,
        prefix: '2001:7fb:fd04::/48',
        max_length: 48,
        ta: 'ripe',
        source_url: RPKI_VRPS_URL,
      },
      {
        id: 'vrp-196615-93.175.147.0/24-24',
        asn: 196615,
        prefix: '93.175.147.0/24',
        max_length: 24,
        ta: 'ripe',
        source_url: RPKI_VRPS_URL,
      },
    ]);
    expect(parseRpkiVrps(VRPS_FULL, RPKI_VRPS_URL).records.map((r) => r.id)).toEqual(['vrp-196615-93.175.147.0/24-24']);
  });

  it('validates routes against the real VRPs: valid, invalid (origin or length), not-found', () => {
    const index = vrpIndex(parseRpkiVrps(VRPS, RPKI_VRPS_URL).records);
    const state = (p: string, o: number | null) => index.validate(p, o).state;
    expect(state('93.175.147.0/24', 196615)).toBe('valid');
    expect(index.validate('93.175.147.0/24', 196615).matched?.id).toBe('vrp-196615-93.175.147.0/24-24');
    expect(state('93.175.147.0/25', 196615)).toBe('invalid'); // longer than maxLength 24
    expect(state('93.175.147.0/24', 64500)).toBe('invalid'); // another origin
    expect(state('93.175.147.0/24', null)).toBe('invalid'); // AS_SET origin matches nothing
    expect(state('93.175.146.0/24', 196615)).toBe('not-found');
    expect(state('93.175.0.0/16', 196615)).toBe('not-found'); // less specific: not covered
    expect(state('2001:7fb:fd04::/48', 196615)).toBe('valid');
    expect(state('2001:7fb:fd04::/64', 196615)).toBe('invalid');
    expect(index.validate('2001:7fb:fd05::/48', 196615)).toEqual({ state: 'not-found', covering: [], matched: null });
  });

  it('names a broken ROA, and throws for a body that is not an export', () => {
    const doc = JSON.parse(VRPS);
    doc.roas[0].asn = 'ASX';
    doc.roas[1].maxLength = 40;
    doc.roas.push({ asn: 'AS196615', prefix: '93.175.147.1/24', maxLength: 24, ta: 'ripe' });
    const { records, problems } = parseRpkiVrps(JSON.stringify(doc), RPKI_VRPS_URL);
    expect(records).toHaveLength(1);
    expect(problems.map((p) => [p.entry, p.reason])).toEqual([
      [0, 'asn is not an AS number ("ASX")'],
      [1, 'maxLength is not between 48 and 128 (40)'],
      [3, 'prefix is not a prefix ("93.175.147.1/24")'],
    ]);
    expect(() => parseRpkiVrps(RIS, RPKI_VRPS_URL)).toThrow(/not JSON/);
    expect(() => parseRpkiVrps('{"vrps":[]}', RPKI_VRPS_URL)).toThrow(/"roas" list/);
  });
});

describe('detectRoutingAlerts', () => {
  it('raises nothing when every watched prefix comes from its expected origin through its upstreams', () => {
    const alerts = detectRoutingAlerts(updates(), {
      prefixes: [
        { prefix: '64.68.236.0/22', origins: [13904] },
        { prefix: '102.66.116.0/24', origins: [328471], upstreams: [30844] },
      ],
      asns: [{ asn: 13904 }],
    });
    expect(alerts).toEqual([]);
  });

  it('flags an announcement of a watched prefix or a more-specific from another origin as a possible hijack', () => {
    const alerts = detectRoutingAlerts(updates(), {
      prefixes: [{ prefix: '64.68.0.0/16', origins: [64500] }],
      asns: [],
    });
    expect(alerts).toEqual([
      {
        id: 'possible_hijack-ris-21-587-22045871-a-64.68.236.0/22',
        kind: 'possible_hijack',
        rule: 'unexpected_origin',
        reason: '64.68.236.0/22 (a more-specific of 64.68.0.0/16) originated by AS13904, expected AS64500',
        prefix: '64.68.236.0/22',
        watched_prefix: '64.68.0.0/16',
        watched_asn: null,
        origin_asn: 13904,
        path: [199524, 1299, 3356, 13904, 13904, 13904, 13904, 13904, 13904],
        rpki: null,
        update_id: 'ris-21-587-22045871-a-64.68.236.0/22',
        collector: 'rrc21',
        peer_asn: 199524,
        time: '2021-11-08T03:34:46.170Z',
      },
    ]);
  });

  it("flags an RPKI-invalid route of a watched prefix even from the expected origin (a real update moved onto the real ROA's prefix)", () => {
    const index = vrpIndex(parseRpkiVrps(VRPS, RPKI_VRPS_URL).records);
    const [, , u] = updates();
    const moved = [
      { ...u!, id: 'x-24', prefix: '93.175.147.0/24', path: [24482, 196615], origin_asn: 196615 },
      { ...u!, id: 'x-25', prefix: '93.175.147.128/25', path: [24482, 196615], origin_asn: 196615 },
      { ...u!, id: 'x-set', prefix: '93.175.147.0/24', path: [24482, [196615, 64500]], origin_asn: null },
    ];
    const alerts = detectRoutingAlerts(
      moved,
      { prefixes: [{ prefix: '93.175.147.0/24', origins: [196615] }], asns: [] },
      index,
    );
    expect(alerts.map((a) => [a.update_id, a.rule, a.rpki])).toEqual([
      ['x-25', 'rpki_invalid', 'invalid'],
      ['x-set', 'no_single_origin', 'invalid'],
    ]);
  });

  it('flags a stub network seen as transit, and a watched prefix through an unexpected upstream, as possible leaks', () => {
    const alerts = detectRoutingAlerts(updates(), {
      prefixes: [{ prefix: '102.66.116.0/24', origins: [328471], upstreams: [37100] }],
      asns: [
        { asn: 3356, provides_transit: false },
        { asn: 1299, provides_transit: true },
      ],
    });
    expect(alerts.map((a) => [a.kind, a.rule, a.prefix, a.watched_asn, a.reason])).toEqual([
      [
        'possible_leak',
        'transit_by_stub',
        '64.68.236.0/22',
        3356,
        'AS3356, which provides transit to nobody, is in the middle of the path 199524 1299 3356 13904 13904 13904 13904 13904 13904 for 64.68.236.0/22',
      ],
      [
        'possible_leak',
        'unexpected_upstream',
        '102.66.116.0/24',
        null,
        '102.66.116.0/24 from AS328471 reached the collector through AS30844, not one of its upstreams AS37100',
      ],
    ]);
  });

  it('judges announcements only, and gives the same alert ids on every run', () => {
    const watch = {
      prefixes: [
        { prefix: '2605:de00::/32', origins: [64500] },
        { prefix: '2602:fd9e::/32', origins: [64500] },
      ],
      asns: [],
    };
    const first = detectRoutingAlerts(updates(), watch);
    expect(first.map((a) => a.prefix)).toEqual(['2602:fd9e:f00::/40']);
    expect(detectRoutingAlerts(updates(), watch).map((a) => a.id)).toEqual(first.map((a) => a.id));
  });
});
