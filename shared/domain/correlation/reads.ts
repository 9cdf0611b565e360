/**
 * The events a correlation reads (docs/correlation.md, data-model pattern 60): each domain through
 * a key of its own, each read bounded, so what one costs follows the anchor's surroundings and the
 * window, never the tenant's whole history:
 *
 * - the environments around the anchor (its own, those located within reach of the circle, and
 *   those without a location), at most MAX_ENVIRONMENTS: each one Query of its event index (GSI1)
 *   between the UUIDv7 bounds of the receipt window;
 * - the connector feeds' alerts (`hazard.alert`, `watchlist.alert`): one Query each of the type
 *   index (GSI2) between the same bounds;
 * - events in no environment read (or in none at all): the grid cells of the circle in the mention
 *   index (pattern 48, kept by the stream worker, by occurrence time), then the events found in the
 *   circle and not read already, by id (BatchGetItem).
 *
 * Each read takes at most READ_PER_KEY items; `truncated` says one reached it.
 */
import { getEvents, listEvents, type StoredEvent } from '../../db/events.js';
import { listEnvironments } from '../../db/environments.js';
import { mentionsSince } from '../../db/mentions.js';
import { cellOf, VESSEL_CELL_DEGREES } from '../../db/vessels/index.js';
import { timeIdBound, timeOfId } from '../../ids.js';
import { metresBetween } from '../../geo/distance.js';
import type { TenantId } from '../../vocabulary/tenant.js';

/** Items one read takes at most: of one environment's events, one feed type's, one grid cell's mentions. */
export const READ_PER_KEY = 200;
/** Environments whose events are read, at most: the anchor's, then the nearest, then those without a location. */
export const MAX_ENVIRONMENTS = 10;
/** How far beyond the circle an environment's location may be and its events still be read (a site is not a point). */
export const ENVIRONMENT_REACH_M = 25_000;
/** The event types of the feeds domain, each read from the type index. */
export const FEED_TYPES = ['hazard.alert', 'watchlist.alert'] as const;
/** The tenant's environments read to choose from (pattern 13). */
const ENVIRONMENTS_LISTED = 1000;

interface Point {
  lat: number;
  lon: number;
}

export interface EventsAround {
  events: StoredEvent[];
  /** A read reached its bound, or more environments were near than are read. */
  truncated: boolean;
}

/** The 0.2-degree grid cells (the vessel area index's, and the mention index's) a circle touches. */
export function cellsAround(at: Point, radiusM: number): string[] {
  const dLat = radiusM / 111_320;
  const dLon = radiusM / (111_320 * Math.max(0.01, Math.cos((at.lat * Math.PI) / 180)));
  const cells = new Set<string>();
  for (let lat = at.lat - dLat; lat <= at.lat + dLat + VESSEL_CELL_DEGREES; lat += VESSEL_CELL_DEGREES)
    for (let lon = at.lon - dLon; lon <= at.lon + dLon + VESSEL_CELL_DEGREES; lon += VESSEL_CELL_DEGREES)
      cells.add(cellOf(Math.min(lat, at.lat + dLat), Math.min(lon, at.lon + dLon)));
  return [...cells];
}

/** The environments whose events are read: the anchor's, those near, those that could be anywhere. */
async function environmentsAround(
  tenantId: TenantId,
  at: Point,
  radiusM: number,
  own: string | null,
): Promise<{ ids: string[]; more: boolean }> {
  const listed = await listEnvironments(tenantId, {}, { limit: ENVIRONMENTS_LISTED, offset: 0 });
  const near: { id: string; d: number }[] = [];
  for (const e of listed) {
    if (e.environment_id === own) continue;
    const d = e.location ? metresBetween(at, e.location) : Infinity;
    if (d <= radiusM + ENVIRONMENT_REACH_M || !e.location) near.push({ id: e.environment_id, d });
  }
  // Nearest first; those without a location (Infinity) after, oldest first as listed.
  near.sort((a, b) => a.d - b.d);
  const ids = [...(own ? [own] : []), ...near.map((n) => n.id)];
  return {
    ids: ids.slice(0, MAX_ENVIRONMENTS),
    more: ids.length > MAX_ENVIRONMENTS || listed.length >= ENVIRONMENTS_LISTED,
  };
}

/**
 * The tenant's events that may lie within `radiusM` of `at`: received between `receivedFromMs` and
 * `receivedToMs`, or (from the mention index) occurred between `occurredFrom` and `occurredTo`. The
 * caller filters by time and distance.
 */
export async function eventsAround(
  tenantId: TenantId,
  at: Point & { environmentId: string | null },
  radiusM: number,
  window: { receivedFromMs: number; receivedToMs: number; occurredFrom: string; occurredTo: string },
): Promise<EventsAround> {
  const ids = { fromId: timeIdBound(window.receivedFromMs, 'low'), toId: timeIdBound(window.receivedToMs, 'high') };
  const page = { limit: READ_PER_KEY, offset: 0 };
  const [environments, ...keyed] = await Promise.all([
    environmentsAround(tenantId, at, radiusM, at.environmentId).then(async (envs) => ({
      more: envs.more,
      pages: await Promise.all(envs.ids.map((environmentId) => listEvents(tenantId, { environmentId, ...ids }, page))),
    })),
    ...FEED_TYPES.map((type) => listEvents(tenantId, { type, ...ids }, page)),
    ...cellsAround(at, radiusM).map((cell) =>
      mentionsSince(tenantId, 'cell', cell, window.occurredFrom, READ_PER_KEY, window.occurredTo),
    ),
  ]);
  const typed = keyed.slice(0, FEED_TYPES.length) as Awaited<ReturnType<typeof listEvents>>[];
  const cells = keyed.slice(FEED_TYPES.length) as Awaited<ReturnType<typeof mentionsSince>>[];
  const byId = new Map<string, StoredEvent>();
  for (const p of [...environments.pages, ...typed]) for (const e of p.events) byId.set(e.event_id, e);
  // Indexed events in the circle that no read above found: in no environment, or in one not read.
  const missing = new Set<string>();
  for (const c of cells)
    for (const m of c.mentions) {
      const received = timeOfId(m.event_id);
      if (byId.has(m.event_id) || !m.location || metresBetween(at, m.location) > radiusM) continue;
      if (received >= window.receivedFromMs && received <= window.receivedToMs) missing.add(m.event_id);
    }
  const fetched =
    missing.size > 0 ? await getEvents(tenantId, [...missing].slice(0, READ_PER_KEY)) : new Map<string, StoredEvent>();
  for (const e of fetched.values()) byId.set(e.event_id, e);
  return {
    events: [...byId.values()],
    truncated:
      environments.more ||
      missing.size > READ_PER_KEY ||
      [...environments.pages, ...typed].some((p) => p.events.length >= READ_PER_KEY) ||
      cells.some((c) => c.truncated),
  };
}
