/** The NOAA SWPC solar-wind parser against real captures of plasma-7-day, mag-7-day and rtsw_mag_1m. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FeedFormatError } from '../../shared/feeds/feed-document.js';
import {
  parseSwpcSolarWind,
  SWPC_MAG_URL,
  SWPC_PLASMA_URL,
  SWPC_RTSW_MAG_URL,
} from '../../shared/feeds/swpc-solar-wind.js';

const sample = (name: string) =>
  readFileSync(new URL(`../fixtures/feeds/swpc-solar-wind/${name}`, import.meta.url), 'utf8');
const PLASMA = sample('plasma-7-day.2024-05-08.trimmed.json');
const MAG = sample('mag-7-day.2026-04-18.trimmed.json');
const RTSW = sample('rtsw_mag_1m.2024-04-24.trimmed.json');
const KP = readFileSync(
  new URL('../fixtures/feeds/swpc-kp/noaa-planetary-k-index.array-of-arrays.2026-02-09.json', import.meta.url),
  'utf8',
);

describe('parseSwpcSolarWind', () => {
  it('reads the plasma product, keeping a missing value as null and naming the minute with none', () => {
    const { records, problems } = parseSwpcSolarWind(PLASMA, SWPC_PLASMA_URL);
    expect(records).toHaveLength(619);
    // Raw: ["2024-05-01 18:10:00.000","7.78","357.6","20863"]
    expect(records[0]).toEqual({
      id: 'sw-plasma-2024-05-01T18:10:00.000Z',
      kind: 'plasma',
      time: '2024-05-01T18:10:00.000Z',
      spacecraft: null,
      active: true,
      density: 7.78,
      speed: 357.6,
      temperature: 20863,
      source_url: SWPC_PLASMA_URL,
    });
    // Raw: ["2024-05-01 22:32:00.000","5.69",null,null]: the density alone.
    expect(records.find((r) => r.time === '2024-05-01T22:32:00.000Z')).toMatchObject({
      density: 5.69,
      speed: null,
      temperature: null,
    });
    // Raw: ["2024-05-02 04:36:00.000",null,null,null]
    expect(problems).toEqual([
      { entry: 609, id: 'sw-plasma-2024-05-02T04:36:00.000Z', reason: 'no measurement (every value is null)' },
    ]);
  });

  it('reads the magnetic-field product by column name', () => {
    const { records, problems } = parseSwpcSolarWind(MAG, SWPC_MAG_URL);
    expect(problems).toEqual([]);
    expect(records).toHaveLength(240);
    // Raw: ["2026-04-11 17:22:00.000","0.01","1.91","-4.26","89.62","-65.89","4.66"], the most southward Bz of the sample.
    expect(records.find((r) => r.time === '2026-04-11T17:22:00.000Z')).toEqual({
      id: 'sw-mag-2026-04-11T17:22:00.000Z',
      kind: 'mag',
      time: '2026-04-11T17:22:00.000Z',
      spacecraft: null,
      active: true,
      bx_gsm: 0.01,
      by_gsm: 1.91,
      bz_gsm: -4.26,
      bt: 4.66,
      lon_gsm: 89.62,
      lat_gsm: -65.89,
      source_url: SWPC_MAG_URL,
    });
    expect(Math.min(...records.map((r) => (r.kind === 'mag' ? r.bz_gsm! : 0)))).toBe(-4.26);
  });

  it('reads rtsw_mag_1m, one reading per spacecraft and minute, with the active one marked', () => {
    const { records, problems } = parseSwpcSolarWind(RTSW, SWPC_RTSW_MAG_URL);
    expect(problems).toEqual([]);
    expect(records).toHaveLength(100);
    expect(records.filter((r) => r.active).map((r) => r.spacecraft)).toEqual(Array(50).fill('ACE'));
    // Raw: {"time_tag":"2024-04-24T23:35:00","active":false,"source":"DSCOVR",...,"bt":3.85,...,"bx_gsm":2.88,"by_gsm":1.39,"bz_gsm":2.12,"theta_gsm":33.60,"phi_gsm":25.82,...}
    expect(records[1]).toEqual({
      id: 'sw-mag-2024-04-24T23:35:00.000Z-dscovr',
      kind: 'mag',
      time: '2024-04-24T23:35:00.000Z',
      spacecraft: 'DSCOVR',
      active: false,
      bx_gsm: 2.88,
      by_gsm: 1.39,
      bz_gsm: 2.12,
      bt: 3.85,
      lon_gsm: 25.82,
      lat_gsm: 33.6,
      source_url: SWPC_RTSW_MAG_URL,
    });
    expect(records[0]!.id).toBe('sw-mag-2024-04-24T23:35:00.000Z-ace');
  });

  it('gives the same ids on every poll', () => {
    for (const [body, url] of [
      [PLASMA, SWPC_PLASMA_URL],
      [MAG, SWPC_MAG_URL],
      [RTSW, SWPC_RTSW_MAG_URL],
    ] as const) {
      const ids = parseSwpcSolarWind(body, url).records.map((r) => r.id);
      expect(parseSwpcSolarWind(body, url).records.map((r) => r.id)).toEqual(ids);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('skips a broken row, names it, and keeps the rest', () => {
    const rows = JSON.parse(MAG) as unknown[][];
    rows[2]![3] = 'south';
    rows[3]![6] = '-1.0';
    rows[4]![0] = '11/04/2026';
    rows[6] = [...rows[5]!];
    rows[7] = 'x' as unknown as unknown[];
    const { records, problems } = parseSwpcSolarWind(JSON.stringify(rows), SWPC_MAG_URL);
    expect(records).toHaveLength(235);
    expect(problems.map((p) => [p.entry, p.id, p.reason])).toEqual([
      [2, 'sw-mag-2026-04-11T14:33:00.000Z', 'bz_gsm is not a number ("south")'],
      [3, 'sw-mag-2026-04-11T14:34:00.000Z', 'bt -1 is negative'],
      [4, null, 'time_tag is not a UTC date-time ("11/04/2026")'],
      [6, 'sw-mag-2026-04-11T14:36:00.000Z', 'a second reading for the same minute'],
      [7, null, 'a row that is not an array'],
    ]);
    const objects = JSON.parse(RTSW) as Record<string, unknown>[];
    objects[0]!.source = null;
    objects[2]!.bz_gsm = 'n/a';
    const rtsw = parseSwpcSolarWind(JSON.stringify(objects), SWPC_RTSW_MAG_URL);
    expect(rtsw.records).toHaveLength(98);
    expect(rtsw.problems.map((p) => p.reason)).toEqual([
      'source is not a spacecraft name (null)',
      'bz_gsm is not a number ("n/a")',
    ]);
  });

  it('throws for a body that is not a solar-wind document', () => {
    expect(() => parseSwpcSolarWind('<html><body>503 Service Unavailable</body></html>', SWPC_PLASMA_URL)).toThrow(
      /HTML/,
    );
    expect(() => parseSwpcSolarWind('{"WindSpeed":"348"}', SWPC_PLASMA_URL)).toThrow(FeedFormatError);
    // Another SWPC product with a header row (the Kp index) is not read as solar wind.
    expect(() => parseSwpcSolarWind(KP, SWPC_PLASMA_URL)).toThrow(/header row is neither/);
    expect(() => parseSwpcSolarWind('[{"time_tag":"2026-08-09T15:00:00","Kp":1.33}]', SWPC_RTSW_MAG_URL)).toThrow(
      /not an rtsw_mag_1m/,
    );
    expect(() => parseSwpcSolarWind(PLASMA.slice(0, 500), SWPC_PLASMA_URL)).toThrow(/not JSON/);
    expect(parseSwpcSolarWind('[]', SWPC_PLASMA_URL)).toEqual({ records: [], problems: [] });
  });
});
