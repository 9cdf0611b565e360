/**
 * Space weather as the tenant's connectors keep it (docs/connectors.md, "Space weather"): the
 * planetary K-index of the last day, the solar wind at L1 of the last hour, the NOAA G-scale and
 * the geomagnetically induced current (GIC) risk it means for long conductors, and each of the
 * tenant's infrastructure lines with its own exposure (gic-exposure.ts).
 *
 * Read from the sources of the tenant's `swpc-kp`, `swpc-plasma` and `swpc-mag` connectors, or
 * from the public ones (kept by any tenant's connector of the public source) for a feed it has
 * none of. Costs: 1 Query for the connectors, then per source 1 Query (Kp: 2, the 3-hourly and
 * the 1-minute readings), and the line listing (1 Query, each file's line index read once per
 * container).
 */
import { feedRecords } from '../../db/feed-records.js';
import { gicRiskForKp, type GicAssessment, type KpRecord } from '../../feeds/swpc-kp.js';
import type { SolarWindMag, SolarWindPlasma } from '../../feeds/swpc-solar-wind.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { listLines } from '../infrastructure/index.js';
import { sourcesOfFeeds } from './connector-view.js';
import { auroralEdge, conductorExposure, type ConductorExposure } from './gic-exposure.js';

/** The 3-hourly readings of one day. */
const KP_READINGS = 8;
/** One reading a minute: the last hour. */
const WIND_READINGS = 60;
/** A 3-hourly reading older than this (two intervals) is stale: the connector has not kept up. */
const STALE_MS = 6 * 3600_000;

export interface KpReading {
  time: string;
  kp: number;
  cadence: KpRecord['cadence'];
}

export interface Conductor extends ConductorExposure {
  line_id: string;
  environment_id: string;
  name: string | null;
  kind: string;
  length_km: number;
}

export interface SpaceWeather {
  kp: {
    /** The newest reading: SWPC's 1-minute estimate when it is newer than the last 3-hourly one. */
    current: KpReading | null;
    /** The greatest 3-hourly Kp of the last 24 hours of readings. */
    max_24h: KpReading | null;
    /** The 3-hourly readings of the last day, newest first. */
    readings: KpReading[];
    stale: boolean;
  };
  gic: (GicAssessment | UnknownGic) & { kp: number | null; auroral_edge_magnetic_latitude: number | null };
  solar_wind: {
    plasma: Pick<SolarWindPlasma, 'time' | 'speed' | 'density' | 'temperature'> | null;
    mag: Pick<SolarWindMag, 'time' | 'bz_gsm' | 'bt'> | null;
    /** The most southward Bz of the last hour's readings (nT), and the minutes it pointed south. */
    bz_min_1h: number | null;
    southward_minutes_1h: number;
  };
  conductors: Conductor[];
  conductors_total: number;
  sources: { kp: string[]; plasma: string[]; mag: string[] };
}

const newest = async <R>(
  sources: readonly string[],
  prefix: string,
  limit: number,
  time: (r: R) => string,
): Promise<R[]> => {
  const all = (
    await Promise.all(sources.map((s) => feedRecords<R>(s, limit, { idPrefix: prefix, newestFirst: true })))
  ).flat();
  return all.sort((a, b) => time(b).localeCompare(time(a))).slice(0, limit);
};

const RISK_ORDER = ['none', 'low', 'moderate', 'high', 'severe', 'extreme'];

/** With no Kp reading kept the risk is not known: not `none`, which is what the scale says below G1. */
export interface UnknownGic extends Omit<GicAssessment, 'risk'> {
  risk: 'unknown';
}
const UNKNOWN_GIC: UnknownGic = {
  g_scale: null,
  risk: 'unknown',
  effects: 'No Kp reading is kept, so the risk cannot be told: check the swpc-kp connector.',
  source: gicRiskForKp(0).source,
};

/** The answer's `gic` for the current Kp, or for none. */
export function gicAt(kp: number | null): SpaceWeather['gic'] {
  return {
    ...(kp === null ? UNKNOWN_GIC : gicRiskForKp(kp)),
    kp,
    auroral_edge_magnetic_latitude: kp === null ? null : auroralEdge(kp),
  };
}

/** The most exposed first: by risk, then the most poleward, then the longest. */
const byExposure = (a: Conductor, b: Conductor) =>
  RISK_ORDER.indexOf(b.risk) - RISK_ORDER.indexOf(a.risk) ||
  b.magnetic_latitude - a.magnetic_latitude ||
  b.length_km - a.length_km;

/** `conductors`: how many lines to answer, the most exposed first (0: the lines are not read). */
export async function spaceWeather(tenantId: TenantId, nowMs: number, conductors: number): Promise<SpaceWeather> {
  const sources = await sourcesOfFeeds(tenantId, ['swpc-kp', 'swpc-plasma', 'swpc-mag']);
  const byTime = (r: { time: string }) => r.time;
  const [threeHourly, oneMinute, plasma, mag, lines] = await Promise.all([
    newest<KpRecord>(sources['swpc-kp'], 'kp-3h-', KP_READINGS, byTime),
    newest<KpRecord>(sources['swpc-kp'], 'kp-1m-', 1, byTime),
    newest<SolarWindPlasma>(sources['swpc-plasma'], 'sw-plasma-', WIND_READINGS, byTime),
    newest<SolarWindMag>(sources['swpc-mag'], 'sw-mag-', WIND_READINGS, byTime),
    conductors > 0 ? listLines(tenantId) : [],
  ]);
  const reading = (r: KpRecord): KpReading => ({ time: r.time, kp: r.kp, cadence: r.cadence });
  const readings = threeHourly.map(reading);
  const estimate = oneMinute[0] ? reading(oneMinute[0]) : null;
  const latest3h = readings[0] ?? null;
  const current = estimate && (!latest3h || estimate.time > latest3h.time) ? estimate : latest3h;
  const max24h = readings
    .filter((r) => Date.parse(r.time) >= Date.parse(readings[0]!.time) - 21 * 3600_000)
    .reduce<KpReading | null>((m, r) => (!m || r.kp > m.kp ? r : m), null);
  const kp = current?.kp ?? null;

  const assessed =
    kp === null
      ? []
      : lines
          .map((l) => ({
            line_id: l.line_id,
            environment_id: l.environment_id,
            name: l.name,
            kind: l.kind,
            length_km: l.length_km,
            ...conductorExposure(l.bbox, kp, gicRiskForKp(kp).risk),
          }))
          .sort(byExposure);

  const winds = mag.filter((m) => m.active && m.bz_gsm !== null);
  const lastPlasma = plasma.find((p) => p.speed !== null || p.density !== null) ?? null;
  const lastMag = winds[0] ?? null;
  return {
    kp: { current, max_24h: max24h, readings, stale: !latest3h || nowMs - Date.parse(latest3h.time) > STALE_MS },
    gic: gicAt(kp),
    solar_wind: {
      plasma: lastPlasma && {
        time: lastPlasma.time,
        speed: lastPlasma.speed,
        density: lastPlasma.density,
        temperature: lastPlasma.temperature,
      },
      mag: lastMag && { time: lastMag.time, bz_gsm: lastMag.bz_gsm, bt: lastMag.bt },
      bz_min_1h: winds.length === 0 ? null : Math.min(...winds.map((m) => m.bz_gsm!)),
      southward_minutes_1h: winds.filter((m) => m.bz_gsm! < 0).length,
    },
    conductors: assessed.slice(0, conductors),
    conductors_total: assessed.length,
    sources: { kp: sources['swpc-kp'], plasma: sources['swpc-plasma'], mag: sources['swpc-mag'] },
  };
}
