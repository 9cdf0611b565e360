/**
 * The watchlist's values and its matcher, pure: how each type's value is kept (one way for one
 * entity), lines thinned, and what a compiled watchlist says an event's mentions, a position and
 * an IP's geography touch.
 */
import { lineString, point } from '@turf/helpers';
import pointToLineDistance from '@turf/point-to-line-distance';
import { describe, expect, it } from 'vitest';
import type { WatchedLine, WatchlistEntry } from '../../shared/db/watchlist/entries.js';
import type { MentionType } from '../../shared/domain/events/mentions.js';
import {
  compileWatchlist,
  matchGeography,
  matchMentions,
  matchPosition,
  WATCH_LINE_DISTANCE_M,
} from '../../shared/domain/watchlist/match.js';
import { thinVertices, watchedValueOf } from '../../shared/domain/watchlist/values.js';
import { RequestValidationError } from '../../shared/errors.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';
import type { WatchlistEntityType } from '../../shared/vocabulary/watchlist.js';

const TENANT = systemTenant('0190f2a4-1b2c-7d3e-8f40-123456789abc');
let seq = 0;

function entry(
  entity_type: WatchlistEntityType,
  value: string | number,
  line: WatchedLine | null = null,
): WatchlistEntry {
  seq++;
  return {
    entry_id: `0190f2a4-1b2c-7d3e-8f40-${String(seq).padStart(12, '0')}`,
    tenant_id: TENANT,
    entity_type,
    value,
    label: null,
    note: null,
    line,
    created_at: '2026-01-01T00:00:00.000Z',
    created_by: '0190f2a4-1b2c-7d3e-8f40-000000000000',
  };
}

const FILE = '0190f2a4-1b2c-7d3e-8f40-0000000000ff';
/** A cable in the Strait of Dover, west to east. */
const CABLE: [number, number][] = [
  [1.4, 51.1],
  [1.6, 51.15],
  [1.8, 51.2],
];
const lineEntry = (vertices: [number, number][], name = 'Channel Link 1') =>
  entry('line', `${FILE}/0`, {
    file_id: FILE,
    line_id: '0',
    environment_id: FILE,
    name,
    kind: 'subsea_cable',
    vertices,
    thinned: false,
    source_vertices: vertices.length,
  });

/** The value kept, or the 422's type at body.value. */
function kept(type: WatchlistEntityType, value: string | number): string | number {
  try {
    return watchedValueOf(type, value);
  } catch (err) {
    if (!(err instanceof RequestValidationError)) throw err;
    expect(err.issues.map((i) => i.loc)).toEqual([['body', 'value']]);
    return `422:${err.issues[0]!.type}`;
  }
}

describe('watchedValueOf', () => {
  it('keeps an MMSI as nine digits, from a string or a number', () => {
    expect(kept('vessel', ' 257123450 ')).toBe('257123450');
    expect(kept('vessel', 2570001)).toBe('002570001');
    expect(kept('vessel', '25712345')).toBe('422:mmsi');
    expect(kept('vessel', 'MMSI257123450')).toBe('422:mmsi');
  });

  it('keeps an address or range with its host bits cleared, IPv6 as RFC 5952 writes it, mapped IPv4 as IPv4', () => {
    expect(kept('ip', '203.0.113.7')).toBe('203.0.113.7');
    expect(kept('ip', '203.0.113.7/32')).toBe('203.0.113.7');
    expect(kept('ip', '10.1.2.3/8')).toBe('10.0.0.0/8');
    expect(kept('ip', '2001:0DB8:0000:0000:0001::5/32')).toBe('2001:db8::/32');
    expect(kept('ip', '2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(kept('ip', '2001:db8::1/128')).toBe('2001:db8::1');
    expect(kept('ip', '::ffff:198.51.100.4')).toBe('198.51.100.4');
    expect(kept('ip', '::ffff:10.0.0.0/104')).toBe('10.0.0.0/8');
    expect(kept('ip', '::ffff:a00:0/104')).toBe('10.0.0.0/8');
    expect(kept('ip', '0.0.0.0/0')).toBe('0.0.0.0/0');
    for (const bad of [
      '10.0.0.0/33',
      '2001:db8::/129',
      '010.0.0.1',
      '10.0.0.1/',
      '10.0.0.1/x',
      'fe80::1%eth0',
      'example.com',
      '10.0.0',
    ])
      expect(kept('ip', bad), bad).toBe('422:ip');
    expect(kept('ip', 167772161)).toBe('422:type');
  });

  it('keeps a domain lower case, without its trailing dot, an internationalised one as punycode', () => {
    expect(kept('domain', 'Evil.Example.COM.')).toBe('evil.example.com');
    expect(kept('domain', 'bücher.example')).toBe('xn--bcher-kva.example');
    for (const bad of ['localhost', '203.0.113.7', 'exa mple.com', 'https://example.com/', ''])
      expect(kept('domain', bad), bad).toBe('422:domain');
  });

  it('keeps an autonomous system as its number, a country as its upper-case ISO code', () => {
    expect(kept('asn', 'AS64500')).toBe(64500);
    expect(kept('asn', 'as 64500')).toBe(64500);
    expect(kept('asn', '64500')).toBe(64500);
    expect(kept('asn', 4_200_000_000)).toBe(4_200_000_000);
    for (const bad of ['AS0', '0', '4294967295', 'ASX', '-1', 0]) expect(kept('asn', bad), String(bad)).toBe('422:asn');
    expect(kept('country', 'no')).toBe('NO');
    expect(kept('country', ' gb ')).toBe('GB');
    expect(kept('country', 'XK')).toBe('XK');
    for (const bad of ['UK', 'EU', 'ZZ', 'NOR', 'N']) expect(kept('country', bad), bad).toBe('422:country');
  });

  it('keeps a line as <file_id>/<line_id>, also when named as the lines listing writes it', () => {
    expect(kept('line', `${FILE.toUpperCase()}/2.1`)).toBe(`${FILE}/2.1`);
    expect(kept('line', `${FILE}:3`)).toBe(`${FILE}/3`);
    for (const bad of [FILE, `${FILE}/`, `${FILE}/a`, 'not-a-file/1'])
      expect(kept('line', bad), bad).toBe('422:line_ref');
  });
});

describe('thinVertices', () => {
  it('keeps a short line whole, and thins a long one evenly to the cap, first and last kept', () => {
    const line = Array.from({ length: 10 }, (_, i) => [i, i * 2, 5]);
    expect(thinVertices(line, 10)).toEqual({ vertices: line.map(([x, y]) => [x, y]), thinned: false });
    const long = Array.from({ length: 1001 }, (_, i) => [i / 1000, 0]);
    const { vertices, thinned } = thinVertices(long, 500);
    expect(thinned).toBe(true);
    expect(vertices).toHaveLength(500);
    expect(vertices[0]).toEqual([0, 0]);
    expect(vertices.at(-1)).toEqual([1, 0]);
    // Evenly: the steps between kept vertices (in vertices of the line) differ by one at most.
    const steps = new Set(vertices.slice(1).map((v, i) => Math.round((v[0] - vertices[i]![0]) * 1000)));
    expect(steps).toEqual(new Set([2, 3]));
  });
});

describe('matchMentions', () => {
  const vessel = entry('vessel', '257123450');
  const range = entry('ip', '10.0.0.0/8');
  const narrow = entry('ip', '10.1.0.0/16');
  const v6 = entry('ip', '2001:db8::/32');
  const host = entry('ip', '203.0.113.7');
  const domain = entry('domain', 'example.com');
  const sub = entry('domain', 'c2.example.net');
  const compiled = compileWatchlist([
    vessel,
    range,
    narrow,
    v6,
    host,
    domain,
    sub,
    entry('asn', 64500),
    entry('country', 'NO'),
    lineEntry(CABLE),
  ]);
  /** The entries the mentions (`[type, value]`) touch, each as [entry id, the mention's value]. */
  const ids = (...mentions: [MentionType, string][]) =>
    matchMentions(
      compiled,
      mentions.map(([type, value]) => ({ type, value })),
    ).map((m) => [m.entry.entry_id, m.mention.value]);

  it('matches a vessel by MMSI, an address inside a watched range (v4 and v6), a domain and its subdomains', () => {
    expect(
      ids(
        ['sensor', 'cam-7'],
        ['mmsi', '257123450'],
        ['ip', '10.1.2.3'],
        ['ip', '2001:db8:ffff::1'],
        ['domain', 'a.b.example.com'],
      ),
    ).toEqual([
      [vessel.entry_id, '257123450'],
      [range.entry_id, '10.1.2.3'],
      [narrow.entry_id, '10.1.2.3'],
      [v6.entry_id, '2001:db8:ffff::1'],
      [domain.entry_id, 'a.b.example.com'],
    ]);
    // An IPv4-mapped IPv6 address is the IPv4 it maps, however it is written.
    expect(ids(['ip', '::ffff:a09:909'])).toEqual([[range.entry_id, '::ffff:a09:909']]);
  });

  it('matches nothing outside: another MMSI, an address out of range or of the other family, a look-alike domain, a parent of a watched subdomain', () => {
    const outside = ids(
      ['mmsi', '257123451'],
      ['ip', '11.0.0.1'],
      ['ip', '203.0.113.8'],
      ['ip', '::a01:203'],
      ['ip', '2001:db9::1'],
      ['domain', 'notexample.com'],
      ['domain', 'example.com.evil.org'],
      ['domain', 'example.net'],
      ['sensor', '257123450'],
    );
    expect(outside).toEqual([]);
  });

  it('names each entry once, with the first mention that touched it', () => {
    expect(
      ids(
        ['ip', '10.9.9.9'],
        ['ip', '10.1.0.1'],
        ['domain', 'example.com'],
        ['domain', 'www.example.com'],
        ['ip', '203.0.113.7'],
      ),
    ).toEqual([
      [range.entry_id, '10.9.9.9'],
      [narrow.entry_id, '10.1.0.1'],
      [domain.entry_id, 'example.com'],
      [host.entry_id, '203.0.113.7'],
    ]);
  });

  it('an empty watchlist touches nothing', () => {
    const empty = compileWatchlist([]);
    expect(matchMentions(empty, [{ type: 'ip', value: '10.0.0.1' }])).toEqual([]);
    expect(matchPosition(empty, { mmsi: '257123450', lat: 51.15, lon: 1.6 })).toEqual({ vessel: null, lines: [] });
    expect(matchGeography(empty, { asn: 64500, country: 'NO' })).toEqual([]);
  });
});

describe('matchPosition', () => {
  const vessel = entry('vessel', '257123450');
  const cable = lineEntry(CABLE);
  const other = lineEntry(
    [
      [1.6, 51.16],
      [1.6, 51.3],
    ],
    'Spur',
  );
  const compiled = compileWatchlist([vessel, cable, other]);

  it(`is ${WATCH_LINE_DISTANCE_M} m: the vessel's own entry, and each watched line that near, nearest first, with its distance`, () => {
    expect(WATCH_LINE_DISTANCE_M).toBe(2000);
    const at = { mmsi: 257123450, lat: 51.15, lon: 1.6 };
    const match = matchPosition(compiled, at);
    expect(match.vessel).toBe(vessel);
    expect(match.lines.map((l) => [l.entry.line!.name, l.distance_m])).toEqual([
      ['Channel Link 1', 0],
      ['Spur', 1112],
    ]);
  });

  it('measures great-circle distance to the segments, not to the vertices, and stops at the limit', () => {
    // 1.5 km north of the first segment's middle: farther from either vertex than 2 km.
    const mid = { lat: 51.125 + 0.0135, lon: 1.5 };
    const expected = pointToLineDistance(point([mid.lon, mid.lat]), lineString(CABLE), { units: 'meters' });
    const [hit] = matchPosition(compiled, { ...mid, mmsi: null }).lines;
    expect(hit!.entry).toBe(cable);
    expect(Math.abs(hit!.distance_m - expected)).toBeLessThan(2);
    expect(hit!.distance_m).toBeGreaterThan(1000);
    // 20 km north: nothing; the vessel of another MMSI: not watched.
    expect(matchPosition(compiled, { mmsi: '257000000', lat: 51.33, lon: 1.4 })).toEqual({ vessel: null, lines: [] });
    // A nearer limit leaves the farther line out.
    expect(matchPosition(compiled, { lat: 51.15, lon: 1.6 }, 500).lines.map((l) => l.entry)).toEqual([cable]);
  });
});

describe('matchGeography', () => {
  const asn = entry('asn', 64500);
  const country = entry('country', 'NO');
  const compiled = compileWatchlist([asn, country, entry('country', 'SE')]);

  it('names the autonomous system and the country entries an IP falls in', () => {
    expect(matchGeography(compiled, { asn: 64500, country: 'no' })).toEqual([asn, country]);
    expect(matchGeography(compiled, { asn: 64501, country: 'NO' })).toEqual([country]);
    expect(matchGeography(compiled, { asn: 64500, country: null })).toEqual([asn]);
    expect(matchGeography(compiled, { asn: null, country: 'DK' })).toEqual([]);
  });
});
