/** The OFAC SDN parser against real rows of OFAC's sdn.csv (test/fixtures/feeds/ofac-sdn/SOURCES.md). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FeedFormatError } from '../../shared/feeds/feed-document.js';
import { countryOfProgramme, OFAC_SDN_URL, parseOfacSdn } from '../../shared/feeds/ofac-sdn.js';

const BODY = readFileSync(new URL('../fixtures/feeds/ofac-sdn/sdn.csv', import.meta.url), 'utf8');
const KEV = readFileSync(
  new URL('../fixtures/feeds/cisa-kev/known_exploited_vulnerabilities.2025.08.25.trimmed.json', import.meta.url),
  'utf8',
);
const byKind = (kind: string) => parseOfacSdn(BODY, OFAC_SDN_URL).records.filter((r) => r.kind === kind);

describe('parseOfacSdn', () => {
  it('keeps every listing, with its programmes and the countries of its country programmes', () => {
    const { records, problems } = parseOfacSdn(BODY, OFAC_SDN_URL);
    expect(problems).toEqual([]);
    const entities = byKind('sanctioned_entity');
    expect(entities).toHaveLength(17);
    expect(records.find((r) => r.id === 'entity|28603')).toEqual({
      id: 'entity|28603',
      kind: 'sanctioned_entity',
      listing_id: '28603',
      name: 'TNK TRADING INTERNATIONAL S.A.',
      entity_type: 'entity',
      programmes: ['UKRAINE-EO13662', 'VENEZUELA-EO13850'],
      countries: ['RU', 'VE'],
      source: 'ofac-sdn',
      source_url: OFAC_SDN_URL,
    });
    // A thematic programme (cyber) names no country.
    expect(records.find((r) => r.id === 'entity|33151')).toMatchObject({
      name: 'SUEX OTC, S.R.O.',
      programmes: ['CYBER2'],
      countries: [],
    });
  });

  it('keeps each listed vessel under its IMO number and its MMSI, with the flag OFAC gives', () => {
    const vessels = byKind('sanctioned_vessel');
    expect(vessels.map((v) => v.id)).toEqual([
      'vessel|imo|9486910',
      'vessel|imo|9339301',
      'vessel|mmsi|636013272',
      'vessel|imo|9263643',
      'vessel|mmsi|518998343',
      'vessel|imo|9313149',
      'vessel|mmsi|352002494',
    ]);
    expect(vessels.find((v) => v.id === 'vessel|mmsi|636013272')).toEqual({
      id: 'vessel|mmsi|636013272',
      kind: 'sanctioned_vessel',
      listing_id: '47371',
      name: 'NS LEADER',
      imo: '9339301',
      mmsi: '636013272',
      call_sign: 'A8LU7',
      vessel_type: 'Crude Oil Tanker',
      flag: 'GA',
      flag_name: 'Gabon',
      programmes: ['RUSSIA-EO14024'],
      source: 'ofac-sdn',
      source_url: OFAC_SDN_URL,
    });
    expect(vessels.map((v) => ('flag' in v ? v.flag : null))).toEqual(['IR', 'GA', 'GA', 'CK', 'CK', 'PA', 'PA']);
  });

  it('ends with the manifest of its programmes and vessels (not its listings)', () => {
    const { records } = parseOfacSdn(BODY, OFAC_SDN_URL);
    expect(records[records.length - 1]).toEqual({
      id: 'manifest',
      kind: 'manifest',
      ids: [...byKind('sanctions_programme'), ...byKind('sanctioned_vessel')].map((r) => r.id),
    });
  });

  it('counts the listings of each country programme', () => {
    const programmes = byKind('sanctions_programme');
    expect(Object.fromEntries(programmes.map((p) => [p.id, 'listed' in p ? p.listed : null]))).toEqual({
      'programme|IR|IFSR': 4,
      'programme|IR|IRAN-CON-ARMS-EO': 1,
      'programme|LY|LIBYA2': 1,
      'programme|KP|DPRK3': 1,
      'programme|RU|UKRAINE-EO13662': 1,
      'programme|VE|VENEZUELA-EO13850': 1,
      'programme|IR|IRAN': 1,
      'programme|BY|BELARUS-EO14038': 1,
      'programme|RU|RUSSIA-EO14024': 2,
      'programme|IR|IRGC': 1,
      'programme|IR|IRAN-EO13846': 1,
    });
  });

  it('reads programme tags by name, not by any prefix', () => {
    expect(
      ['DPRK3', 'IRAN-EO13846', 'LIBYA2', 'SOUTH SUDAN', 'SUDAN', 'SDGT', 'SDNTK', 'CYBER2', 'CARIBBEAN'].map(
        countryOfProgramme,
      ),
    ).toEqual(['KP', 'IR', 'LY', 'SS', 'SD', null, null, null, null]);
  });

  it('skips a broken row, names it, keeps the rest', () => {
    const lines = BODY.split('\r\n');
    lines[1] = lines[1]!.replace('"NPWMD] [IFSR] [IRAN-CON-ARMS-EO"', '-0- ');
    lines[11] = lines[11]!.replace('IMO 9339301; MMSI 636013272', 'IMO 9339302');
    lines[16] = lines[16]!.replace(/^52327,/, '47371,');
    const { records, problems } = parseOfacSdn(lines.join('\r\n'), OFAC_SDN_URL);
    expect(problems).toEqual([
      { entry: 1, id: 'entity|11195', reason: 'no programme' },
      { entry: 11, id: 'entity|47371', reason: 'IMO 9339302 fails its check digit: the vessel is kept by MMSI only' },
      {
        entry: 11,
        id: 'entity|47371',
        reason: 'a vessel with neither an IMO number nor an MMSI: it cannot be matched',
      },
      { entry: 16, id: 'entity|47371', reason: 'the same listing twice' },
    ]);
    expect(records.some((r) => r.id === 'vessel|imo|9313149')).toBe(false);
    expect(records.filter((r) => r.kind === 'sanctioned_entity')).toHaveLength(15);
  });

  it('throws for a body that is not the SDN CSV', () => {
    expect(() => parseOfacSdn('<html><body>Moved</body></html>', OFAC_SDN_URL)).toThrow(/not CSV/);
    expect(() => parseOfacSdn(KEV, OFAC_SDN_URL)).toThrow(FeedFormatError);
    expect(() => parseOfacSdn('type,value\nip,1.2.3.4\n', OFAC_SDN_URL)).toThrow(/not an SDN listing/);
  });
});
