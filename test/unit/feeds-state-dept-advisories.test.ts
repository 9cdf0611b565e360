/** The State Department advisories parser against a real capture of its RSS feed (test/fixtures/feeds/state-dept-advisories/SOURCES.md). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FeedFormatError } from '../../shared/feeds/feed-document.js';
import type { AdvisoryRecord } from '../../shared/feeds/geopolitical-records.js';
import {
  parseStateDeptAdvisories,
  rfc822Utc,
  STATE_DEPT_ADVISORIES_URL,
} from '../../shared/feeds/state-dept-advisories.js';

const BODY = readFileSync(
  new URL('../fixtures/feeds/state-dept-advisories/TAsTWs.2026-10-07.xml', import.meta.url),
  'utf8',
);
const KEV = readFileSync(
  new URL('../fixtures/feeds/cisa-kev/known_exploited_vulnerabilities.2025.08.25.trimmed.json', import.meta.url),
  'utf8',
);
const parse = (body: string) => {
  const { records, problems } = parseStateDeptAdvisories(body, STATE_DEPT_ADVISORIES_URL);
  return {
    records: records.filter((r): r is AdvisoryRecord => r.kind === 'advisory'),
    manifest: records.find((r) => r.kind === 'manifest'),
    problems,
  };
};

describe('parseStateDeptAdvisories', () => {
  it('reads one advisory per country, by the ISO code of its address and not its FIPS tag', () => {
    const { records } = parse(BODY);
    // FIPS KN, BY, MO, UK, NS, ZA, ZI are North Korea, Burundi, Morocco, the UK, Suriname, Zambia, Zimbabwe.
    expect(records.map((r) => [r.country, r.level])).toEqual([
      ['KH', 2],
      ['IT', 2],
      ['GB', 2],
      ['SR', 1],
      ['MA', 2],
      ['BI', 3],
      ['KP', 4],
      ['ZM', 1],
      ['ZW', 2],
    ]);
    expect(records.find((r) => r.country === 'KP')).toEqual({
      id: 'advisory|KP',
      kind: 'advisory',
      country: 'KP',
      level: 4,
      title: 'North Korea - Level 4: Do Not Travel',
      summary: expect.stringMatching(
        /^Do not travel to North Korea due to wrongful detention and other risks\. Do not travel/,
      ),
      updated: '2025-04-29T00:00:00.000Z',
      url: 'https://travel.state.gov/content/tsg_aem/us/en/home/international-travel/travel-advisories/destination.prk.html',
      source: 'us-state-dept',
      source_url: STATE_DEPT_ADVISORIES_URL,
    });
  });

  it('ends with the manifest of what the document lists', () => {
    const { records, manifest } = parse(BODY);
    expect(manifest).toEqual({ id: 'manifest', kind: 'manifest', ids: records.map((r) => r.id) });
  });

  it('names the item whose address carries no ISO code as a problem instead of guessing from its FIPS tag', () => {
    const { records, problems } = parse(BODY);
    expect(records.map((r) => r.country)).not.toContain('CU');
    expect(problems).toEqual([
      {
        entry: 5,
        id: null,
        reason: expect.stringMatching(
          /^the address names no ISO country \(Cuba - Level 2.*FIPS tag CU is not read as ISO\)$/,
        ),
      },
    ]);
  });

  it('keeps summaries short and free of markup and entities', () => {
    for (const r of parse(BODY).records) {
      expect(r.summary!.length).toBeLessThanOrEqual(281);
      expect(r.summary).not.toMatch(/<|&[a-z#0-9]+;/i);
    }
  });

  it('skips an item without a level or with a second advisory for a country, keeps the rest', () => {
    const broken = BODY.replace(
      'Level 2: Exercise Increased Caution</category>\n      <category domain="Country-Tag">UK',
      'Unknown</category>\n      <category domain="Country-Tag">UK',
    )
      .replace('<title>United Kingdom - Level 2: Exercise Increased Caution</title>', '<title>United Kingdom</title>')
      .replace('destination.ita.html</link>', 'destination.khm.html</link>');
    const { records, problems } = parse(broken);
    expect(records.map((r) => r.country)).toEqual(['KH', 'SR', 'MA', 'BI', 'KP', 'ZM', 'ZW']);
    expect(problems.slice(0, 2)).toEqual([
      { entry: 1, id: 'advisory|KH', reason: 'a second advisory for the same country' },
      { entry: 2, id: 'advisory|GB', reason: 'no level 1 to 4 in its Threat-Level category or title' },
    ]);
  });

  it('reads RFC 822 dates as UTC and refuses a day that does not exist', () => {
    expect(rfc822Utc('Wed, 07 Oct 2026 21:02:01 GMT')).toBe('2026-10-07T21:02:01.000Z');
    expect(rfc822Utc('Tue, 15 Sep 2026 10:00 -0400')).toBe('2026-09-15T14:00:00.000Z');
    expect(rfc822Utc('31 Feb 2026')).toBeNull();
    expect(rfc822Utc('2026-09-15')).toBeNull();
  });

  it('throws for a body that is not an RSS feed', () => {
    expect(() =>
      parseStateDeptAdvisories('<!DOCTYPE html><html><body>Access Denied</body></html>', STATE_DEPT_ADVISORIES_URL),
    ).toThrow(/not an RSS feed/);
    expect(() => parseStateDeptAdvisories(KEV, STATE_DEPT_ADVISORIES_URL)).toThrow(FeedFormatError);
  });
});
