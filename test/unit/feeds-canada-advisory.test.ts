/** Global Affairs Canada's country documents, real captures (test/fixtures/feeds/canada-advisory/SOURCES.md). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { friendlyDateUtc, parseCanadaAdvisory } from '../../shared/feeds/canada-advisory.js';
import { FeedFormatError } from '../../shared/feeds/feed-document.js';

const read = (name: string) =>
  readFileSync(new URL(`../fixtures/feeds/canada-advisory/${name}`, import.meta.url), 'utf8');
const UA = read('cta-cap-ua.2026-09-24.json');
const FR = read('cta-cap-fr.2026-10-05.json');
const URL_UA = 'https://data.international.gc.ca/travel-voyage/cta-cap-ua.json';

describe('parseCanadaAdvisory', () => {
  it("reads a country's risk level 0-3 as the advisory level 1-4, with its title, date and page", () => {
    const { records, problems } = parseCanadaAdvisory(UA, URL_UA);
    expect(problems).toEqual([]);
    expect(records).toEqual([
      {
        id: 'advisory|UA',
        kind: 'advisory',
        country: 'UA',
        level: 4,
        title: 'Ukraine - Avoid all travel',
        summary: expect.stringMatching(
          /^UKRAINE - AVOID ALL TRAVEL Avoid all travel to Ukraine due to the Russian military invasion\. /,
        ),
        updated: '2026-09-24T12:53:00.000Z',
        url: 'https://travel.gc.ca/destinations/ukraine',
        source: 'ca-gac',
        source_url: URL_UA,
      },
      { id: 'manifest', kind: 'manifest', ids: ['advisory|UA'] },
    ]);
    expect(parseCanadaAdvisory(FR, URL_UA).records[0]).toMatchObject({
      country: 'FR',
      level: 2,
      title: 'France - Exercise a high degree of caution',
      updated: '2026-10-05T11:02:00.000Z',
    });
  });

  it('says so in the title when some regions are at a higher level', () => {
    const doc = JSON.parse(FR);
    doc.data['has-regional-advisory'] = 1;
    expect(parseCanadaAdvisory(JSON.stringify(doc), URL_UA).records[0]).toMatchObject({
      title: 'France - Exercise a high degree of caution (with regional advisories: some areas are at a higher level)',
    });
  });

  it('names a document it cannot read as a problem and keeps an empty manifest', () => {
    const doc = JSON.parse(UA);
    doc.data['advisory-state'] = 4;
    expect(parseCanadaAdvisory(JSON.stringify(doc), URL_UA)).toEqual({
      records: [{ id: 'manifest', kind: 'manifest', ids: [] }],
      problems: [{ entry: 0, id: 'advisory|UA', reason: 'advisory-state is not 0, 1, 2 or 3 (4)' }],
    });
    doc.data['advisory-state'] = 3;
    doc.data['country-iso'] = 'XX';
    expect(parseCanadaAdvisory(JSON.stringify(doc), URL_UA).problems).toEqual([
      { entry: 0, id: null, reason: 'country-iso "XX" is not an ISO 3166-1 alpha-2 code' },
    ]);
  });

  it('reads Ottawa times to UTC and refuses other forms', () => {
    expect(friendlyDateUtc('January 5, 2026 07:02 EST')).toBe('2026-01-05T12:02:00.000Z');
    expect(friendlyDateUtc('February 30, 2026 07:02 EST')).toBeNull();
    expect(friendlyDateUtc('2026-09-24 08:53')).toBeNull();
  });

  it('throws for a body that is not a country document', () => {
    expect(() => parseCanadaAdvisory('<html>Not found</html>', URL_UA)).toThrow(/HTML/);
    expect(() => parseCanadaAdvisory(JSON.stringify({ data: { UA: JSON.parse(UA).data } }), URL_UA)).toThrow(
      FeedFormatError,
    );
  });
});
