/** The MID table and reading an MMSI's flag and kind from it (ITU-R M.585, the ITU MARS table). */
import { describe, expect, it } from 'vitest';
import { flagOfMmsi, MID_ALLOCATIONS, midAllocation, mmsiKind } from '../../shared/vocabulary/maritime-mid.js';
import { flagStateOf, MID_CODES } from '../../shared/vocabulary/mid-codes.js';

const codeOf = (mmsi: string) => flagOfMmsi(mmsi)?.country_code ?? null;

describe('the MID table', () => {
  it('holds every allocated MID from 201 to 775, each with a two-letter code and a name', () => {
    const mids = new Set(MID_ALLOCATIONS.map((row) => row.mid));
    expect(mids.size).toBe(292);
    expect(MID_ALLOCATIONS).toHaveLength(294);
    for (const row of MID_ALLOCATIONS) {
      expect(row.mid).toMatch(/^[2-7]\d\d$/);
      expect(Number(row.mid)).toBeGreaterThanOrEqual(201);
      expect(Number(row.mid)).toBeLessThanOrEqual(775);
      expect(row.country_code).toMatch(/^[A-Z]{2}$/);
      expect(row.country.length).toBeGreaterThan(2);
    }
  });

  it('is in the ITU order (ascending MID)', () => {
    const mids = MID_ALLOCATIONS.map((row) => Number(row.mid));
    expect([...mids].sort((a, b) => a - b)).toEqual(mids);
  });

  it('answers unallocated MIDs with null', () => {
    for (const mid of ['200', '217', '221', '260', '280', '300', '302', '400', '500', '600', '700', '776', '999']) {
      expect(midAllocation(mid)).toBeNull();
    }
  });

  it('names the shared MID 306 by its flag state, and lists its three territories', () => {
    expect(midAllocation('306')?.country_code).toBe('NL');
    expect(MID_ALLOCATIONS.filter((row) => row.mid === '306').map((row) => row.country_code)).toEqual([
      'BQ',
      'CW',
      'SX',
    ]);
  });
});

describe('flagOfMmsi for ship stations', () => {
  it.each([
    ['366999712', 'US'],
    ['338123456', 'US'],
    ['303123456', 'US'],
    ['232001234', 'GB'],
    ['233001234', 'GB'],
    ['234001234', 'GB'],
    ['235001234', 'GB'],
    ['257012345', 'NO'],
    ['258012345', 'NO'],
    ['259012345', 'NO'],
    ['477123456', 'HK'],
    ['636012345', 'LR'],
    ['637012345', 'LR'],
    ['538001234', 'MH'],
    ['351123456', 'PA'],
    ['352123456', 'PA'],
    ['353123456', 'PA'],
    ['354123456', 'PA'],
    ['355123456', 'PA'],
    ['356123456', 'PA'],
    ['357123456', 'PA'],
    ['370123456', 'PA'],
    ['371123456', 'PA'],
    ['372123456', 'PA'],
    ['373123456', 'PA'],
    ['374123456', 'PA'],
    ['211234560', 'DE'],
    ['244123456', 'NL'],
    ['236123456', 'GI'],
    ['331123456', 'GL'],
    ['416123456', 'TW'],
    ['453123456', 'MO'],
    ['563123456', 'SG'],
    ['271123456', 'TR'],
    ['669123456', 'SZ'],
    ['775123456', 'VE'],
  ])('%s is %s', (mmsi, code) => {
    expect(codeOf(mmsi)).toBe(code);
  });

  it('gives the MID and the ITU name with the code', () => {
    expect(flagOfMmsi('636019825')).toEqual({ mid: '636', country_code: 'LR', country: 'Liberia (Republic of)' });
    expect(flagOfMmsi('235098765')).toEqual({
      mid: '235',
      country_code: 'GB',
      country: 'United Kingdom of Great Britain and Northern Ireland',
    });
  });

  it('answers null for a ship MMSI whose MID is not allocated', () => {
    expect(flagOfMmsi('217123456')).toBeNull();
    expect(flagOfMmsi('799123456')).toBeNull();
  });
});

describe('flagOfMmsi for the other kinds of station', () => {
  it('reads the MID where each kind puts it', () => {
    expect(flagOfMmsi('002320001')).toEqual({
      mid: '232',
      country_code: 'GB',
      country: 'United Kingdom of Great Britain and Northern Ireland',
    });
    expect(codeOf('003669999')).toBe('US');
    expect(codeOf('111232500')).toBe('GB');
    expect(codeOf('023200010')).toBe('GB');
    expect(codeOf('992351234')).toBe('GB');
    expect(codeOf('982570123')).toBe('NO');
    expect(codeOf('823201234')).toBe('GB');
  });

  it('answers null for AIS-SART, MOB and EPIRB-AIS, which carry no MID', () => {
    expect(flagOfMmsi('970123456')).toBeNull();
    expect(flagOfMmsi('972010001')).toBeNull();
    expect(flagOfMmsi('974030001')).toBeNull();
  });

  it('answers null for anything malformed', () => {
    for (const bad of [
      '',
      '36699971',
      '3669997120',
      '36699971a',
      ' 366999712',
      '366 99971',
      '+36699971',
      '111012345',
      '100000000',
      '971123456',
      '900000000',
      '010000000',
      '001000000',
    ]) {
      expect(flagOfMmsi(bad)).toBeNull();
    }
  });
});

describe('mmsiKind', () => {
  it.each([
    ['366999712', 'ship'],
    ['023200010', 'group'],
    ['002320001', 'coast_station'],
    ['111232500', 'sar_aircraft'],
    ['982570123', 'auxiliary_craft'],
    ['992351234', 'aid_to_navigation'],
    ['823201234', 'handheld'],
    ['970123456', 'sart'],
    ['972010001', 'mob'],
    ['974030001', 'epirb_ais'],
    ['971000000', 'invalid'],
    ['112232500', 'invalid'],
    ['001000000', 'invalid'],
    ['12345', 'invalid'],
    ['abcdefghi', 'invalid'],
  ] as const)('%s is %s', (mmsi, kind) => {
    expect(mmsiKind(mmsi)).toBe(kind);
  });
});

describe('the short list of flag codes', () => {
  it('says what the ITU table says, for every MID and kind of MMSI', () => {
    const mids = [...new Set(MID_ALLOCATIONS.map((r) => r.mid))];
    expect(MID_CODES.length / 5).toBe(mids.length);
    for (const mid of mids) {
      for (const mmsi of [`${mid}123456`, `00${mid}1234`, `111${mid}123`, `99${mid}1234`]) {
        const named = flagOfMmsi(mmsi);
        expect(flagStateOf(mmsi)).toEqual(named ? { mid: named.mid, country_code: named.country_code } : null);
      }
    }
    expect(flagStateOf('970123456')).toBeNull();
  });
});
