/**
 * NOAA SWPC planetary K-index (Kp), parsed from the JSON SWPC publishes, and what a Kp value means
 * for long conductors (power lines, pipelines, cable power feeds): the NOAA G-scale and a
 * geomagnetically-induced-current (GIC) risk taken from the scale's own descriptions.
 *
 * Three shapes are read (docs/feeds.md shows one real entry of each):
 * - products/noaa-planetary-k-index.json, 3-hourly, as served since about April 2026: an array of
 *   objects `{"time_tag":"2026-08-09T15:00:00","Kp":1.33,"a_running":5,"station_count":8}`;
 * - the same product as served before: an array of arrays whose first row is the header
 *   `["time_tag","Kp","a_running","station_count"]`, values as strings (`"2.33"`);
 * - json/planetary_k_index_1m.json, the 1-minute estimate: an array of objects
 *   `{"time_tag":"2026-07-09T04:03:00","kp_index":1,"estimated_kp":0.67,"kp":"1M"}` whose Kp is
 *   `estimated_kp` (`kp_index` is it rounded, `kp` the same as a label).
 * `time_tag` has no zone and is UTC.
 */
import { type FeedParse, type FeedProblem, FeedFormatError, isObject, readJson, swpcTimeUtc } from './feed-document.js';

export const SWPC_KP_URL = 'https://services.swpc.noaa.gov/products/noaa-planetary-k-index.json';
export const SWPC_KP_1M_URL = 'https://services.swpc.noaa.gov/json/planetary_k_index_1m.json';
export const SWPC_KP_DESCRIPTION =
  'NOAA SWPC planetary K-index (Kp 0-9 in thirds): the 3-hourly observed index of the last week, or the 1-minute estimate of the last hours. Public domain (US Government).';

/** `3h`: the 3-hourly planetary index; `1m`: SWPC's 1-minute estimate of it. */
export type KpCadence = '3h' | '1m';

export interface KpRecord {
  /** `kp-<cadence>-<time>`: one per reading, the same on every poll and in both 3-hourly shapes. */
  id: string;
  /** Start of the reading's interval, ISO 8601 UTC. */
  time: string;
  kp: number;
  cadence: KpCadence;
  source_url: string;
}

const FEED = 'NOAA SWPC Kp';

/** Kp as a number in 0..9: a number, or (in the array-of-arrays shape) a decimal string. */
function kpValue(v: unknown, stringsAllowed: boolean): number | string {
  let n: number;
  if (typeof v === 'number') n = v;
  else if (stringsAllowed && typeof v === 'string' && /^\d+(\.\d+)?$/.test(v.trim())) n = Number(v);
  else return v === null || v === undefined ? 'Kp missing' : `Kp is not a number (${JSON.stringify(v)})`;
  return Number.isFinite(n) && n >= 0 && n <= 9 ? n : `Kp ${n} is outside 0-9`;
}

/** The readings of a Kp document in any of the three shapes; throws FeedFormatError if it is none of them. */
export function parseSwpcKp(body: string, sourceUrl: string): FeedParse<KpRecord> {
  const doc = readJson(body, FEED);
  if (!Array.isArray(doc)) throw new FeedFormatError(FEED, 'expected a JSON array of Kp readings');
  const records: KpRecord[] = [];
  const problems: FeedProblem[] = [];
  const seen = new Set<string>();
  const add = (entry: number, cadence: KpCadence, tag: unknown, kp: number | string) => {
    const time = swpcTimeUtc(tag);
    if (!time)
      return problems.push({ entry, id: null, reason: `time_tag is not a UTC date-time (${JSON.stringify(tag)})` });
    const id = `kp-${cadence}-${time}`;
    if (typeof kp === 'string') return problems.push({ entry, id, reason: kp });
    if (seen.has(id)) return problems.push({ entry, id, reason: 'a second reading for the same time' });
    seen.add(id);
    records.push({ id, time, kp, cadence, source_url: sourceUrl });
  };

  if (doc.length === 0) return { records, problems };
  if (Array.isArray(doc[0])) {
    // The header row names the columns; they are found by name, not position. The forecast
    // product (header "time_tag","kp","observed","noaa_scale") mixes predictions in: refused.
    const header = doc[0].map(String);
    const [t, k] = [header.indexOf('time_tag'), header.indexOf('Kp')];
    if (t < 0 || k < 0)
      throw new FeedFormatError(FEED, `the header row has no time_tag and Kp columns (${JSON.stringify(doc[0])})`);
    doc.slice(1).forEach((row, i) => {
      if (!Array.isArray(row)) return problems.push({ entry: i + 1, id: null, reason: 'a row that is not an array' });
      add(i + 1, '3h', row[t], kpValue(row[k], true));
    });
    return { records, problems };
  }

  const shapeOf = (e: unknown): KpCadence | null =>
    !isObject(e) || !('time_tag' in e) ? null : 'Kp' in e ? '3h' : 'estimated_kp' in e ? '1m' : null;
  const docShape = doc.map(shapeOf).find((c) => c !== null);
  if (!docShape) throw new FeedFormatError(FEED, 'no entry has a time_tag with Kp or estimated_kp: not a Kp feed');
  doc.forEach((e, i) => {
    // An entry with a time_tag but no value is a reading of the document's shape with its Kp missing.
    if (!isObject(e) || !('time_tag' in e))
      return problems.push({ entry: i, id: null, reason: 'not a Kp reading (no time_tag)' });
    const cadence = shapeOf(e) ?? docShape;
    add(i, cadence, e.time_tag, kpValue(cadence === '3h' ? e.Kp : e.estimated_kp, false));
  });
  return { records, problems };
}

// --- The NOAA G-scale and the GIC risk -----------------------------------------------------------

export type GScale = 'G1' | 'G2' | 'G3' | 'G4' | 'G5';

/**
 * The NOAA geomagnetic storm level of a Kp value, or null below storm level (NOAA Space Weather
 * Scales, https://www.swpc.noaa.gov/noaa-scales-explanation): G1 Kp = 5, G2 Kp = 6, G3 Kp = 7,
 * G4 Kp = 8 "including a 9-", G5 Kp = 9. Kp comes in thirds (5- = 4.67, 5o = 5.00, 5+ = 5.33) and
 * each third belongs to its whole number, except 9- which the scale puts in G4. SWPC's own forecast
 * product labels 4.67 G1 and 4.33 nothing, which is this rule (the tests check it row by row).
 */
export function kpToGScale(kp: number): GScale | null {
  if (!Number.isFinite(kp) || kp < 0 || kp > 9) throw new RangeError(`Kp ${kp} is outside 0-9`);
  const thirds = Math.round(kp * 3);
  if (thirds >= 27) return 'G5';
  if (thirds >= 23) return 'G4'; // 8-, 8o, 8+ and 9-
  if (thirds >= 20) return 'G3';
  if (thirds >= 17) return 'G2';
  if (thirds >= 14) return 'G1';
  return null;
}

export type GicRisk = 'none' | 'low' | 'moderate' | 'high' | 'severe' | 'extreme';

export interface GicAssessment {
  g_scale: GScale | null;
  risk: GicRisk;
  /** NOAA's words for the level, quoted from the scale ("Power systems" and, where it says so, pipelines). */
  effects: string;
  source: string;
}

const SCALES_URL = 'https://www.swpc.noaa.gov/noaa-scales-explanation';

/**
 * The risk of geomagnetically induced currents in long conductors, one step per G level, with what
 * NOAA's scale says of power systems (and pipelines) at that level. Below G1 the scale lists no
 * effect: `none` means that, not a measured zero. Effects grow towards the poles; the scale does
 * not grade them by latitude, and neither does this (docs/feeds.md).
 */
export const GIC_RISK: Record<GScale | 'none', { risk: GicRisk; effects: string }> = {
  none: { risk: 'none', effects: 'Below storm level: the NOAA scale lists no effect on power systems.' },
  G1: { risk: 'low', effects: 'Power systems: weak power grid fluctuations can occur.' },
  G2: {
    risk: 'moderate',
    effects:
      'Power systems: high-latitude power systems may experience voltage alarms, long-duration storms may cause transformer damage.',
  },
  G3: {
    risk: 'high',
    effects: 'Power systems: voltage corrections may be required, false alarms triggered on some protection devices.',
  },
  G4: {
    risk: 'severe',
    effects:
      'Power systems: possible widespread voltage control problems and some protective systems will mistakenly trip out key assets from the grid. Other systems: induced pipeline currents affect preventive measures.',
  },
  G5: {
    risk: 'extreme',
    effects:
      'Power systems: widespread voltage control problems and protective system problems can occur, some grid systems may experience complete collapse or blackouts. Transformers may experience damage. Other systems: pipeline currents can reach hundreds of amps.',
  },
};

export function gicRiskForKp(kp: number): GicAssessment {
  const g = kpToGScale(kp);
  return { g_scale: g, ...GIC_RISK[g ?? 'none'], source: SCALES_URL };
}
