/** The NOAA SWPC Kp parser against real captures of its three shapes, and the G-scale and GIC rule. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FeedFormatError } from '../../shared/feeds/feed-document.js';
import { gicRiskForKp, kpToGScale, parseSwpcKp, SWPC_KP_1M_URL, SWPC_KP_URL } from '../../shared/feeds/swpc-kp.js';

const sample = (name: string) => readFileSync(new URL(`../fixtures/feeds/swpc-kp/${name}`, import.meta.url), 'utf8');
const OBJECTS = sample('noaa-planetary-k-index.2026-08-09.json');
const ARRAYS = sample('noaa-planetary-k-index.array-of-arrays.2026-02-09.json');
const ONE_MINUTE = sample('planetary_k_index_1m.2026-07-09.json');
const FORECAST = sample('noaa-planetary-k-index-forecast.2026-02-09.json');

describe('parseSwpcKp', () => {
  it('reads the 3-hourly array of objects as served since 2026', () => {
    const { records, problems } = parseSwpcKp(OBJECTS, SWPC_KP_URL);
    expect(problems).toEqual([]);
    expect(records).toHaveLength(62);
    // Raw: {"time_tag":"2026-08-02T15:00:00","Kp":5.67,"a_running":67,"station_count":8}
    expect(records[5]).toEqual({
      id: 'kp-3h-2026-08-02T15:00:00.000Z',
      time: '2026-08-02T15:00:00.000Z',
      kp: 5.67,
      cadence: '3h',
      source_url: SWPC_KP_URL,
    });
    expect(records.at(-1)).toMatchObject({ time: '2026-08-09T15:00:00.000Z', kp: 1.33 });
    expect(records.filter((r) => r.kp >= 4.67).map((r) => r.kp)).toEqual([5.67, 5.33, 5.67]);
  });

  it('reads the array of arrays with a header row, values as strings', () => {
    const { records, problems } = parseSwpcKp(ARRAYS, SWPC_KP_URL);
    expect(problems).toEqual([]);
    expect(records).toHaveLength(62);
    // Raw: ["2026-02-05 03:00:00.000","5.33","56","8"]
    expect(records.find((r) => r.time === '2026-02-05T03:00:00.000Z')).toEqual({
      id: 'kp-3h-2026-02-05T03:00:00.000Z',
      time: '2026-02-05T03:00:00.000Z',
      kp: 5.33,
      cadence: '3h',
      source_url: SWPC_KP_URL,
    });
    expect(records[0]).toMatchObject({ time: '2026-02-02T00:00:00.000Z', kp: 2.33 });
  });

  it('reads the 1-minute estimate, taking estimated_kp as the Kp', () => {
    const { records, problems } = parseSwpcKp(ONE_MINUTE, SWPC_KP_1M_URL);
    expect(problems).toEqual([]);
    expect(records).toHaveLength(358);
    // Raw: {"time_tag":"2026-07-09T06:09:00","kp_index":0,"estimated_kp":0.33,"kp":"0P"}
    expect(records.find((r) => r.time === '2026-07-09T06:09:00.000Z')).toEqual({
      id: 'kp-1m-2026-07-09T06:09:00.000Z',
      time: '2026-07-09T06:09:00.000Z',
      kp: 0.33,
      cadence: '1m',
      source_url: SWPC_KP_1M_URL,
    });
    expect(records.at(-1)).toMatchObject({ time: '2026-07-09T10:00:00.000Z', kp: 1.67 });
  });

  it('gives every reading the same id on every poll, and the same in both 3-hourly shapes', () => {
    const ids = (t: string) => parseSwpcKp(t, SWPC_KP_URL).records.map((r) => r.id);
    expect(ids(OBJECTS)).toEqual(ids(OBJECTS));
    expect(new Set(ids(ONE_MINUTE)).size).toBe(358);
    const oneRow = (row: string) => parseSwpcKp(row, SWPC_KP_URL).records[0]!.id;
    expect(oneRow('[{"time_tag":"2026-02-05T03:00:00","Kp":5.33}]')).toBe(
      oneRow('[["time_tag","Kp"],["2026-02-05 03:00:00.000","5.33"]]'),
    );
  });

  it('skips a broken entry, names it, and keeps the rest', () => {
    const rows = JSON.parse(OBJECTS) as Record<string, unknown>[];
    delete rows[3]!.Kp;
    rows[4]!.Kp = 'high';
    rows[6]!.Kp = 12;
    rows[7]!.time_tag = 'yesterday';
    rows[9] = { ...rows[8]! };
    const { records, problems } = parseSwpcKp(JSON.stringify(rows), SWPC_KP_URL);
    expect(records).toHaveLength(57);
    expect(problems.map((p) => [p.entry, p.id, p.reason])).toEqual([
      [3, 'kp-3h-2026-08-02T09:00:00.000Z', 'Kp missing'],
      [4, 'kp-3h-2026-08-02T12:00:00.000Z', 'Kp is not a number ("high")'],
      [6, 'kp-3h-2026-08-02T18:00:00.000Z', 'Kp 12 is outside 0-9'],
      [7, null, 'time_tag is not a UTC date-time ("yesterday")'],
      [9, 'kp-3h-2026-08-03T00:00:00.000Z', 'a second reading for the same time'],
    ]);
  });

  it('names a broken row of the header-row shape by its position', () => {
    const rows = JSON.parse(ARRAYS) as unknown[][];
    rows[2]![1] = '';
    rows[3] = 'x' as unknown as unknown[];
    const { records, problems } = parseSwpcKp(JSON.stringify(rows), SWPC_KP_URL);
    expect(records).toHaveLength(60);
    expect(problems.map((p) => [p.entry, p.reason])).toEqual([
      [2, 'Kp is not a number ("")'],
      [3, 'a row that is not an array'],
    ]);
  });

  it('throws for a body that is not a Kp feed at all', () => {
    expect(() => parseSwpcKp('<!DOCTYPE html><html><body>502 Bad Gateway</body></html>', SWPC_KP_URL)).toThrow(/HTML/);
    expect(() => parseSwpcKp('{"Flux":"174"}', SWPC_KP_URL)).toThrow(FeedFormatError);
    expect(() => parseSwpcKp('[{"time_tag":"2026-08-09T17:00:00","flux":94}]', SWPC_KP_URL)).toThrow(/not a Kp feed/);
    expect(() => parseSwpcKp('[["time_tag","density","speed"]]', SWPC_KP_URL)).toThrow(/header row/);
    // The forecast product, whose rows include predictions, is not read as observed Kp.
    expect(() => parseSwpcKp(FORECAST, SWPC_KP_URL)).toThrow(/header row/);
    expect(() => parseSwpcKp('[{"time_tag":', SWPC_KP_URL)).toThrow(/not JSON/);
    expect(parseSwpcKp('[]', SWPC_KP_URL)).toEqual({ records: [], problems: [] });
  });
});

describe('the G-scale and the GIC risk', () => {
  it('puts each third at its level: 4.33 none, 4.67 (5-) G1, 8.67 (9-) G4, 9 G5', () => {
    const edges: [number, string | null][] = [
      [0, null],
      [4.33, null],
      [4.67, 'G1'],
      [5, 'G1'],
      [5.33, 'G1'],
      [5.67, 'G2'],
      [6.33, 'G2'],
      [6.67, 'G3'],
      [7.33, 'G3'],
      [7.67, 'G4'],
      [8.33, 'G4'],
      [8.67, 'G4'],
      [9, 'G5'],
    ];
    expect(edges.map(([kp]) => [kp, kpToGScale(kp)])).toEqual(edges);
    expect(() => kpToGScale(9.5)).toThrow(RangeError);
    expect(() => kpToGScale(Number.NaN)).toThrow(RangeError);
  });

  it('agrees with the noaa_scale SWPC itself printed on every row of a real forecast', () => {
    const [, ...rows] = JSON.parse(FORECAST) as [string, string, string, string | null][];
    expect(rows).toHaveLength(81);
    expect(rows.filter((r) => r[3] !== null).map((r) => [r[1], r[3]])).toEqual([
      ['5.33', 'G1'],
      ['4.67', 'G1'],
    ]);
    for (const [, kp, , scale] of rows) expect(kpToGScale(Number(kp))).toBe(scale);
  });

  it('rises with the G level and quotes what NOAA says at that level', () => {
    expect([4.33, 4.67, 6, 7, 8.67, 9].map((kp) => gicRiskForKp(kp).risk)).toEqual([
      'none',
      'low',
      'moderate',
      'high',
      'severe',
      'extreme',
    ]);
    expect(gicRiskForKp(8)).toMatchObject({
      g_scale: 'G4',
      effects: expect.stringContaining('induced pipeline currents'),
    });
    expect(gicRiskForKp(9).effects).toContain('pipeline currents can reach hundreds of amps');
    expect(gicRiskForKp(3).source).toBe('https://www.swpc.noaa.gov/noaa-scales-explanation');
  });
});
