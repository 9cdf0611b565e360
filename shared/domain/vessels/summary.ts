/** A vessel as lists show it (who, flag, where last, how long silent), and what the vessel reads share. */
import type { SeenVessel, StoredVessel } from '../../db/vessels/index.js';
import { flagStateOf } from '../../vocabulary/mid-codes.js';
import { shipTypeOf } from '../../vocabulary/ship-types.js';

export { VESSEL_NOT_FOUND } from './track.js';

export const hoursAgo = (hours: number, nowMs: number) => new Date(nowMs - hours * 3600_000).toISOString();
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
/** Minutes since its last position; null for a vessel that has sent none. */
export function silentMinutes(v: SeenVessel, nowMs: number): number;
export function silentMinutes(v: StoredVessel, nowMs: number): number | null;
export function silentMinutes(v: StoredVessel, nowMs: number): number | null {
  return v.last_seen === null ? null : round(Math.max(0, (nowMs - Date.parse(v.last_seen)) / 60_000));
}

/**
 * A vessel in a list: who, where last, how long silent. One that has sent static data only has
 * `last_seen`, `last_position` and `silent_minutes` null.
 */
export function summaryOf(v: StoredVessel, nowMs: number) {
  return {
    mmsi: v.mmsi,
    name: v.identity?.name ?? null,
    flag_state: flagStateOf(v.mmsi)?.country_code ?? null,
    ship_type_category: shipTypeOf(v.identity?.ship_type ?? null).category,
    first_seen: v.first_seen,
    last_seen: v.last_seen,
    last_position: v.last_position,
    silent_minutes: silentMinutes(v, nowMs),
  };
}
