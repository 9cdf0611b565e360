/**
 * Gatehouse's own geopolitical list format (docs/feeds.md, "A list of your own"). The format is
 * this service's, so its samples are written here; the levels and programmes in them are taken
 * from the real captures (the State Department's level 4 for North Korea, OFAC's DPRK3).
 */
import { describe, expect, it } from 'vitest';
import { FeedFormatError } from '../../shared/feeds/feed-document.js';
import { parseGeopoliticalList } from '../../shared/feeds/geopolitical-list.js';

const URL_ = 'https://intel.example/geo.csv';
const CSV = [
  'country,level,programme,summary,updated,url',
  'KP,4,DPRK3,"Do not travel; OFAC programme DPRK3",2025-04-29,https://travel.state.gov/content/tsg_aem/us/en/home/international-travel/travel-advisories/destination.prk.html',
  'ua,4,,Active conflict,2026-09-24T08:53:00-04:00,',
  'NO,1,,,,',
  'IR,,IRAN,,,',
].join('\r\n');

describe('parseGeopoliticalList', () => {
  it('reads a CSV list into advisories and programmes, one per country (and programme)', () => {
    const { records, problems } = parseGeopoliticalList(CSV, URL_);
    expect(problems).toEqual([]);
    expect(records.map((r) => r.id)).toEqual([
      'advisory|KP',
      'programme|KP|DPRK3',
      'advisory|UA',
      'advisory|NO',
      'programme|IR|IRAN',
      'manifest',
    ]);
    expect(records[5]).toEqual({
      id: 'manifest',
      kind: 'manifest',
      ids: ['advisory|KP', 'programme|KP|DPRK3', 'advisory|UA', 'advisory|NO', 'programme|IR|IRAN'],
    });
    expect(records[0]).toEqual({
      id: 'advisory|KP',
      kind: 'advisory',
      country: 'KP',
      level: 4,
      title: 'Level 4',
      summary: 'Do not travel; OFAC programme DPRK3',
      updated: '2025-04-29T00:00:00.000Z',
      url: 'https://travel.state.gov/content/tsg_aem/us/en/home/international-travel/travel-advisories/destination.prk.html',
      source: 'list',
      source_url: URL_,
    });
    expect(records[2]).toMatchObject({ country: 'UA', level: 4, updated: '2026-09-24T12:53:00.000Z', url: null });
    expect(records[4]).toMatchObject({
      kind: 'sanctions_programme',
      country: 'IR',
      programme: 'IRAN',
      listed: null,
      summary: null,
    });
  });

  it('reads the same list as JSON, bare or under "entries"', () => {
    const entries = [
      { country: 'KP', level: 4, programme: 'DPRK3', updated: '2025-04-29' },
      { country: 'IR', programme: 'IRAN' },
    ];
    const bare = parseGeopoliticalList(JSON.stringify(entries), URL_);
    const wrapped = parseGeopoliticalList(JSON.stringify({ entries }), URL_);
    expect(bare.records.map((r) => r.id)).toEqual([
      'advisory|KP',
      'programme|KP|DPRK3',
      'programme|IR|IRAN',
      'manifest',
    ]);
    expect(wrapped).toEqual(bare);
  });

  it('skips an entry it cannot read, names it (CSV rows counted from the header), keeps the rest', () => {
    const body = [
      'country,level,summary,updated,url',
      'UK,3,,,',
      'FR,5,,,',
      'DE,,,,',
      'ES,2,,yesterday,',
      'IT,2,,,ftp://x',
      'PT,2,,,',
      'PT,3,,,',
    ].join('\n');
    const { records, problems } = parseGeopoliticalList(body, URL_);
    expect(records.map((r) => r.id)).toEqual(['advisory|PT', 'manifest']);
    expect(problems).toEqual([
      { entry: 1, id: null, reason: 'country "UK" is not an ISO 3166-1 alpha-2 code' },
      { entry: 2, id: 'advisory|FR', reason: 'level "5" is not 1, 2, 3 or 4' },
      { entry: 3, id: null, reason: 'neither a level nor a programme' },
      { entry: 4, id: null, reason: 'updated "yesterday" is not RFC 3339 or YYYY-MM-DD' },
      { entry: 5, id: null, reason: 'url "ftp://x" is not an http or https address' },
      { entry: 7, id: 'advisory|PT', reason: 'the same country (level) or country and programme twice' },
    ]);
  });

  it('throws for a body that is not such a list', () => {
    expect(() => parseGeopoliticalList('<html>Not found</html>', URL_)).toThrow(/HTML or XML/);
    expect(() => parseGeopoliticalList('{"data": {}}', URL_)).toThrow(/neither an array/);
    expect(() => parseGeopoliticalList('type,value\nip,1.2.3.4', URL_)).toThrow(FeedFormatError);
  });
});
