/**
 * Hazard alerts (docs/connectors.md): an earthquake a tenant's `usgs-quakes` connector reads, of
 * at least its `min_magnitude`, within its `radius_km` of one of the tenant's environments (their
 * reference point) or of one of its infrastructure lines, raises a `hazard.alert` event for that
 * environment (the line's environment for a line).
 *
 * Once each: an alert is named by the connector, the quake and the environment, and a guard item
 * written with the outbox message that carries the event (shared/db/announce-once.ts) keeps a
 * re-poll, or a poll retried after a failure, from raising it again; the `vessel-announcer`
 * worker stores the event like any other. Every poll checks every quake it read, not only the new
 * ones, so an alert whose write failed is raised by the next poll.
 */
import { announceOnce } from '../../db/announce-once.js';
import { listEnvironments } from '../../db/environments.js';
import { tenantPk } from '../../db/keys.js';
import { quakesNear, type QuakeRecord } from '../../feeds/usgs-quakes.js';
import { derivedTimeId } from '../../ids.js';
import { CONNECTORS_SOURCE, HAZARD_FOUND } from '../../vocabulary/bus.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import type { EventInput } from '../events/ingest.js';
import { lineFiles, nearestLines } from '../infrastructure/lines.js';

/** A guard outlives the quake's stay in the day's and the week's feeds. */
const GUARD_DAYS = 10;
/** Environments read for matching, at most (a tenant has far fewer). */
const MAX_ENVIRONMENTS = 1000;

export interface HazardPlace {
  id: string;
  environment_id: string;
  name: string;
  kind: 'environment' | 'line';
  lat: number;
  lon: number;
}

export interface QuakeAlert {
  quake: QuakeRecord;
  place: HazardPlace;
  distance_km: number;
}

/** The quakes of a poll that alert: of the magnitude, near an environment or a line (the nearest place of each environment). */
export async function quakeAlerts(tenantId: TenantId, quakes: readonly QuakeRecord[], radiusKm: number, minMagnitude: number): Promise<QuakeAlert[]> {
  const strong = quakes.filter((q) => q.magnitude !== null && q.magnitude >= minMagnitude);
  if (strong.length === 0) return [];
  const environments = await listEnvironments(tenantId, {}, { limit: MAX_ENVIRONMENTS, offset: 0 });
  const places: HazardPlace[] = environments.flatMap((e) =>
    e.location ? [{ id: e.environment_id, environment_id: e.environment_id, name: e.name, kind: 'environment' as const, lat: e.location.lat, lon: e.location.lon }] : [],
  );
  const found: QuakeAlert[] = quakesNear(strong, places, radiusKm).map((n) => ({ quake: n.quake, place: n.point, distance_km: n.distance_km }));
  const files = await lineFiles(tenantId);
  if (files.length > 0) {
    const names = new Map(environments.map((e) => [e.environment_id, e.name]));
    for (const quake of strong) {
      const [line] = await nearestLines(tenantId, quake, radiusKm * 1000, 1, files);
      if (!line) continue;
      found.push({
        quake,
        place: { id: line.line_id, environment_id: line.environment_id, name: line.name ?? `a line of ${names.get(line.environment_id) ?? 'an environment'}`, kind: 'line', lat: line.nearest.lat, lon: line.nearest.lon },
        distance_km: Math.round(line.distance_m) / 1000,
      });
    }
  }
  // One alert per quake and environment: the nearest of its places.
  const nearest = new Map<string, QuakeAlert>();
  for (const a of found.sort((x, y) => x.distance_km - y.distance_km)) {
    const key = `${a.quake.id}#${a.place.environment_id}`;
    if (!nearest.has(key)) nearest.set(key, a);
  }
  return [...nearest.values()];
}

/** The event that announces an alert; `atMs` (the poll that raised it) is the time its id carries. */
export function hazardEvent(tenantId: TenantId, connectorId: string, a: QuakeAlert, atMs: number): EventInput {
  const q = a.quake;
  const magnitude = q.magnitude === null ? 'An' : `An M${q.magnitude}`;
  return {
    event_id: derivedTimeId(atMs, `${tenantId}/hazard/${connectorId}/${q.id}/${a.place.environment_id}`, 0),
    type: 'hazard.alert',
    source: 'api',
    environment_id: a.place.environment_id,
    occurred_at: q.time,
    location: { lat: q.lat, lon: q.lon },
    description: `${magnitude} earthquake ${a.distance_km} km from ${a.place.kind === 'line' ? 'the line ' : ''}${a.place.name}${q.place ? ` (${q.place})` : ''}`,
    payload: {
      hazard: 'earthquake',
      feed: 'usgs-quakes',
      connector_id: connectorId,
      record_id: q.id,
      magnitude: q.magnitude,
      depth_km: q.depth_km,
      place: q.place,
      distance_km: a.distance_km,
      near: { kind: a.place.kind, id: a.place.id, name: a.place.name },
      tsunami_flag: q.tsunami,
      pager_alert: q.alert,
      url: q.url,
    },
  };
}

/** Raises each alert unless it was raised before; the number raised now. */
export async function raiseHazardAlerts(tenantId: TenantId, connectorId: string, alerts: readonly QuakeAlert[], atMs: number): Promise<number> {
  let raised = 0;
  for (const a of alerts) {
    const event = hazardEvent(tenantId, connectorId, a, atMs);
    const guard = { PK: `${tenantPk(tenantId)}#HAZARDS`, SK: `${connectorId}#${a.quake.id}#${a.place.environment_id}`, entity: 'HAZARDGUARD', guardDays: GUARD_DAYS };
    if (await announceOnce(tenantId, guard, { source: CONNECTORS_SOURCE, detailType: HAZARD_FOUND }, event as Record<string, unknown>, atMs)) raised++;
  }
  return raised;
}
