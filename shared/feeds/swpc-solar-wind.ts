/**
 * NOAA SWPC real-time solar wind at L1 (DSCOVR, ACE), parsed from the JSON SWPC publishes:
 * - products/solar-wind/plasma-<span>.json: an array of arrays whose first row is the header
 *   `["time_tag","density","speed","temperature"]`, values as strings or null;
 * - products/solar-wind/mag-<span>.json: the same with the header
 *   `["time_tag","bx_gsm","by_gsm","bz_gsm","lon_gsm","lat_gsm","bt"]`;
 * - json/rtsw/rtsw_mag_1m.json: an array of objects, one per minute and spacecraft
 *   (`source` "ACE" or "DSCOVR", `active` true for the one SWPC uses), numbers as numbers,
 *   the GSM angles named `phi_gsm` (longitude) and `theta_gsm` (latitude).
 * Columns are found by name, never by position. `time_tag` has no zone and is UTC.
 * docs/feeds.md shows a real row of each.
 */
import {
  type FeedParse,
  type FeedProblem,
  FeedFormatError,
  isObject,
  readJson,
  text,
  swpcTimeUtc,
} from './feed-document.js';

export const SWPC_PLASMA_URL = 'https://services.swpc.noaa.gov/products/solar-wind/plasma-7-day.json';
export const SWPC_MAG_URL = 'https://services.swpc.noaa.gov/products/solar-wind/mag-7-day.json';
export const SWPC_RTSW_MAG_URL = 'https://services.swpc.noaa.gov/json/rtsw/rtsw_mag_1m.json';
/** The 7-day products are about 0.5 MB (plasma) and 0.75 MB (mag); rtsw_mag_1m about 1.1 MB. */
export const SWPC_SOLAR_WIND_MAX_BYTES = 4 * 1024 * 1024;
export const SWPC_SOLAR_WIND_DESCRIPTION =
  'NOAA SWPC real-time solar wind at L1 (DSCOVR/ACE), one reading a minute: plasma (proton density, bulk speed, temperature) or interplanetary magnetic field (Bx, By, Bz in GSM, Bt). A southward Bz with a fast, dense wind precedes geomagnetic storms by 15-60 minutes. Public domain (US Government).';

export type SolarWindKind = 'plasma' | 'mag';

interface SolarWindBase {
  /** `sw-<kind>-<time>` for the products, `sw-mag-<time>-<spacecraft>` for rtsw (one reading per spacecraft per minute). */
  id: string;
  kind: SolarWindKind;
  /** The minute of the reading, ISO 8601 UTC. */
  time: string;
  /** `DSCOVR`, `ACE`... when the document says (rtsw); null for the products, which carry SWPC's chosen spacecraft. */
  spacecraft: string | null;
  /** rtsw: whether SWPC used this spacecraft for that minute; the products hold only the one it used (true). */
  active: boolean;
  source_url: string;
}

/** Null means SWPC had no value for that minute (the instrument's gap), not zero. */
export interface SolarWindPlasma extends SolarWindBase {
  kind: 'plasma';
  /** Protons per cm³. */
  density: number | null;
  /** Bulk speed, km/s. */
  speed: number | null;
  /** Kelvin. */
  temperature: number | null;
}

export interface SolarWindMag extends SolarWindBase {
  kind: 'mag';
  /** nT, GSM coordinates; a negative bz_gsm is a southward field. */
  bx_gsm: number | null;
  by_gsm: number | null;
  bz_gsm: number | null;
  /** Total field, nT. */
  bt: number | null;
  /** Degrees. */
  lon_gsm: number | null;
  lat_gsm: number | null;
}

export type SolarWindRecord = SolarWindPlasma | SolarWindMag;

const FEED = 'NOAA SWPC solar wind';

const PLASMA_FIELDS = ['density', 'speed', 'temperature'] as const;
const MAG_FIELDS = ['bx_gsm', 'by_gsm', 'bz_gsm', 'bt', 'lon_gsm', 'lat_gsm'] as const;
/** Quantities that cannot be negative. */
const NON_NEGATIVE = new Set(['density', 'speed', 'temperature', 'bt']);

/** A measurement: a number, a decimal string (products), or null (no value that minute); else why not. */
function measure(name: string, v: unknown): number | null | { error: string } {
  if (v === null || v === undefined) return null;
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'string' && /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v.trim())) n = Number(v);
  else return { error: `${name} is not a number (${JSON.stringify(v)})` };
  if (!Number.isFinite(n)) return { error: `${name} is not a finite number` };
  if (NON_NEGATIVE.has(name) && n < 0) return { error: `${name} ${n} is negative` };
  return n;
}

/** The solar-wind readings of a plasma, mag or rtsw_mag_1m document; FeedFormatError if it is none of them. */
export function parseSwpcSolarWind(body: string, sourceUrl: string): FeedParse<SolarWindRecord> {
  const doc = readJson(body, FEED);
  if (!Array.isArray(doc)) throw new FeedFormatError(FEED, 'expected a JSON array of solar-wind readings');
  const records: SolarWindRecord[] = [];
  const problems: FeedProblem[] = [];
  const seen = new Set<string>();
  if (doc.length === 0) return { records, problems };

  const add = (
    entry: number,
    kind: SolarWindKind,
    get: (field: string) => unknown,
    tag: unknown,
    spacecraft: string | null,
    active: boolean,
  ) => {
    const time = swpcTimeUtc(tag);
    if (!time)
      return problems.push({ entry, id: null, reason: `time_tag is not a UTC date-time (${JSON.stringify(tag)})` });
    const id = `sw-${kind}-${time}${spacecraft ? `-${spacecraft.toLowerCase()}` : ''}`;
    const fields = kind === 'plasma' ? PLASMA_FIELDS : MAG_FIELDS;
    const values: Record<string, number | null> = {};
    for (const f of fields) {
      const m = measure(f, get(f));
      if (m !== null && typeof m === 'object') return problems.push({ entry, id, reason: m.error });
      values[f] = m;
    }
    if (fields.every((f) => values[f] === null))
      return problems.push({ entry, id, reason: 'no measurement (every value is null)' });
    if (seen.has(id)) return problems.push({ entry, id, reason: 'a second reading for the same minute' });
    seen.add(id);
    records.push({ id, kind, time, spacecraft, active, ...values, source_url: sourceUrl } as SolarWindRecord);
  };

  if (Array.isArray(doc[0])) {
    const header = doc[0].map(String);
    const col = (name: string) => header.indexOf(name);
    const kind: SolarWindKind | null =
      col('time_tag') < 0
        ? null
        : PLASMA_FIELDS.every((f) => col(f) >= 0)
          ? 'plasma'
          : ['bx_gsm', 'by_gsm', 'bz_gsm', 'bt'].every((f) => col(f) >= 0)
            ? 'mag'
            : null;
    if (!kind)
      throw new FeedFormatError(
        FEED,
        `the header row is neither plasma (time_tag, density, speed, temperature) nor mag (time_tag, bx_gsm, by_gsm, bz_gsm, bt) (${JSON.stringify(doc[0]).slice(0, 120)})`,
      );
    doc.slice(1).forEach((row, i) => {
      if (!Array.isArray(row)) return problems.push({ entry: i + 1, id: null, reason: 'a row that is not an array' });
      add(i + 1, kind, (f) => (col(f) >= 0 ? row[col(f)] : null), row[col('time_tag')], null, true);
    });
    return { records, problems };
  }

  // rtsw_mag_1m: objects, one per minute and spacecraft.
  const isMag = (e: unknown) => isObject(e) && 'time_tag' in e && 'bt' in e && 'bz_gsm' in e;
  if (!doc.some(isMag))
    throw new FeedFormatError(FEED, 'no entry has a time_tag with bt and bz_gsm: not an rtsw_mag_1m document');
  doc.forEach((e, i) => {
    if (!isObject(e) || !('time_tag' in e))
      return problems.push({ entry: i, id: null, reason: 'not a solar-wind reading (no time_tag)' });
    const source = text(e.source);
    if (!source || !/^[A-Za-z0-9_-]{1,32}$/.test(source))
      return problems.push({
        entry: i,
        id: null,
        reason: `source is not a spacecraft name (${JSON.stringify(e.source)})`,
      });
    const renamed: Record<string, unknown> = { ...e, lon_gsm: e.phi_gsm, lat_gsm: e.theta_gsm };
    add(i, 'mag', (f) => renamed[f], e.time_tag, source.toUpperCase(), e.active === true);
  });
  return { records, problems };
}
