/**
 * How exposed one long conductor is to geomagnetically induced currents (GIC) at a Kp value
 * (docs/connectors.md, "Space weather"). A documented rule of thumb, not a model of the grid:
 *
 * 1. The level comes from the NOAA G-scale of the Kp value (`gicRiskForKp`, shared/feeds/swpc-kp.ts).
 * 2. Where the line lies in geomagnetic latitude: the auroral electrojet, which drives the largest
 *    induced currents, sits over the auroral oval, whose equatorward edge is at about
 *    66° - 2° x Kp geomagnetic latitude (the common rule; at Kp 9 about 48°). A line reaching
 *    poleward of that edge is `auroral` and its level is raised one step (NOAA's scale names
 *    high-latitude systems first, from G2). A line wholly below 40° geomagnetic is `low` and its
 *    level lowered one step (a storm's effect there is small, equatorial electrojet aside).
 *    Other lines are `mid` and keep the level.
 * 3. Below storm level (Kp under 5-) nothing is raised: `none` stays `none`.
 *
 * Geomagnetic latitude is the centred-dipole one, with the IGRF's north geomagnetic pole of epoch
 * 2020 as tabulated at deeptow.whoi.edu/cdpole.html (80.59° N, 73.17° W); it moves about a tenth
 * of a degree a year, far below what this rule of thumb can tell.
 */
import type { GicRisk } from '../../feeds/swpc-kp.js';

/** Centred-dipole north geomagnetic pole, IGRF epoch 2020 (degrees). */
export const GEOMAGNETIC_POLE = { lat: 80.59, lon: -73.17 } as const;

const RAD = Math.PI / 180;
const LEVELS: readonly GicRisk[] = ['none', 'low', 'moderate', 'high', 'severe', 'extreme'];
/** Below this geomagnetic latitude (absolute) a line counts as low-latitude. */
export const LOW_LATITUDE_DEG = 40;

/** Centred-dipole geomagnetic latitude of a point, degrees (-90..90). */
export function geomagneticLatitude(lat: number, lon: number): number {
  const p = GEOMAGNETIC_POLE;
  const sin =
    Math.sin(lat * RAD) * Math.sin(p.lat * RAD) +
    Math.cos(lat * RAD) * Math.cos(p.lat * RAD) * Math.cos((lon - p.lon) * RAD);
  return Math.round((Math.asin(Math.max(-1, Math.min(1, sin))) / RAD) * 100) / 100;
}

/** The geomagnetic latitude (absolute, degrees) of the auroral oval's equatorward edge at a Kp value. */
export const auroralEdge = (kp: number) => Math.round((66 - 2 * kp) * 100) / 100;

export type LatitudeBand = 'auroral' | 'mid' | 'low';

export interface ConductorExposure {
  /** The most poleward geomagnetic latitude the line reaches (absolute, degrees). */
  magnetic_latitude: number;
  band: LatitudeBand;
  risk: GicRisk;
}

/** A line's exposure, from the corners of its bounding box `[minLon, minLat, maxLon, maxLat]`. */
export function conductorExposure(
  bbox: readonly [number, number, number, number],
  kp: number,
  levelAtKp: GicRisk,
): ConductorExposure {
  const [w, s, e, n] = bbox;
  const corners: [number, number][] = [
    [s, w],
    [s, e],
    [n, w],
    [n, e],
  ];
  const magnetic = Math.max(...corners.map(([lat, lon]) => Math.abs(geomagneticLatitude(lat, lon))));
  const band: LatitudeBand = magnetic >= auroralEdge(kp) ? 'auroral' : magnetic < LOW_LATITUDE_DEG ? 'low' : 'mid';
  const at = LEVELS.indexOf(levelAtKp);
  const step = levelAtKp === 'none' ? 0 : band === 'auroral' ? 1 : band === 'low' ? -1 : 0;
  const risk = LEVELS[Math.max(levelAtKp === 'none' ? 0 : 1, Math.min(LEVELS.length - 1, at + step))]!;
  return { magnetic_latitude: magnetic, band, risk };
}
