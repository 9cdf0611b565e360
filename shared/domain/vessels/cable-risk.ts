/**
 * Cable risk at a point (docs/vessels.md): how exposed the tenant's nearest infrastructure line
 * is there, 0..100, from five factors, each 0..1 with a weight, all measured from the tenant's
 * own data: distance to the nearest line, vessel activity near the point, anchoring or loitering
 * there, threat-library definitions that matched nearby, and recent events and incidents nearby.
 * The activity factors count for a line only: they are scaled by how near the line is.
 * Deterministic: the same data gives the same figures.
 */
import { listEvents } from '../../db/events.js';
import { episodesEndedBetween, type StoredPosition } from '../../db/vessels/index.js';
import { timeIdBound } from '../../ids.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { severityOfScore } from '../../vocabulary/score-bands.js';
import { nearestLines } from '../infrastructure/index.js';
import { positionsInArea } from './lists.js';
import { metresBetween } from '../../geo/distance.js';
import { BEHAVIOUR } from './track-analysis.js';

export const CABLE_RISK = {
  /** Lines searched within this distance (m). */
  searchM: 50_000,
  /** The distance factor falls from 1 on the line to 0 at this distance (m). */
  distanceZeroM: 10_000,
  /** Activity, anchoring, definitions and events count within this distance of the point (m). */
  activityM: 2_000,
  /** Distinct vessels near the point that make the activity factor 1. */
  busyVessels: 5,
  /** Summed threat scores (0..1 each) of nearby events that make the events factor 1. */
  busyScore: 2,
  /** Nav statuses of anchoring or lying still: 1 at anchor, 5 moored, 6 aground. */
  anchoredStatuses: [1, 5, 6],
  weights: {
    distance: 0.35,
    vessel_activity: 0.15,
    anchoring_loitering: 0.25,
    threat_definitions: 0.1,
    events_incidents: 0.15,
  },
} as const;

/** Event types that speak of a threat to a line. */
const LINE_EVENT_TYPES = [
  'vessel.loitering',
  'ais.gap',
  'fibre.disturbance',
  'intrusion.detected',
  'perimeter.breach',
  'drone.detected',
] as const;

const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;

export async function cableRisk(
  tenantId: TenantId,
  at: { lat: number; lon: number },
  hours: number,
  nowMs = Date.now(),
) {
  const from = new Date(nowMs - hours * 3600_000).toISOString();
  const to = new Date(nowMs).toISOString();
  const [lines, positions, loiterings, events] = await Promise.all([
    nearestLines(tenantId, at, CABLE_RISK.searchM, 5),
    positionsInArea(tenantId, at, CABLE_RISK.activityM, from, to),
    episodesEndedBetween(tenantId, 'loitering', from, to, 200),
    eventsNear(tenantId, at, nowMs - hours * 3600_000, nowMs),
  ]);
  const nearest = lines[0];
  const notes: string[] = [];
  if (!nearest)
    notes.push(
      `No infrastructure line of the tenant within ${CABLE_RISK.searchM / 1000} km: upload the line files (KML, KMZ, GeoJSON, shapefile) to judge.`,
    );
  if (positions.length === 0)
    notes.push(`No vessel positions within ${CABLE_RISK.activityM / 1000} km in the last ${hours} hours.`);

  const distance = nearest ? Math.max(0, 1 - nearest.distance_m / CABLE_RISK.distanceZeroM) : 0;
  const vessels = new Set(positions.map((p) => p.mmsi));
  const activity = Math.min(1, vessels.size / CABLE_RISK.busyVessels);
  const loiteringHere = loiterings.filter((l) => l.center && metresBetween(l.center, at) <= CABLE_RISK.activityM);
  const stillHere = positions.filter(isStill);
  const anchoring = loiteringHere.length > 0 ? 1 : stillHere.length > 0 ? 0.6 : 0;
  const signatures = events.flatMap((e) => e.matched_signatures);
  const definitions = Math.min(
    1,
    signatures.reduce((s, m) => s + m.weight, 0),
  );
  const incidents = new Set(events.map((e) => e.incident_id).filter(Boolean));
  const eventScore = Math.min(1, events.reduce((s, e) => s + (e.threat_score ?? 0), 0) / CABLE_RISK.busyScore);
  const w = CABLE_RISK.weights;
  const factors = {
    distance: {
      value: round(distance),
      weight: w.distance,
      detail: nearest
        ? `${nearest.distance_m} m to ${nearest.name ?? nearest.line_id} (${nearest.kind})`
        : 'no line near',
    },
    vessel_activity: {
      value: round(activity),
      weight: w.vessel_activity,
      detail: `${vessels.size} vessel(s), ${positions.length} position(s) within ${CABLE_RISK.activityM} m`,
    },
    anchoring_loitering: {
      value: anchoring,
      weight: w.anchoring_loitering,
      detail: `${loiteringHere.length} loitering episode(s) and ${stillHere.length} anchored or stopped position(s) within ${CABLE_RISK.activityM} m`,
    },
    threat_definitions: {
      value: round(definitions),
      weight: w.threat_definitions,
      detail: signatures.length
        ? `matched: ${[...new Set(signatures.map((m) => m.definition_id))].join(', ')}`
        : 'no threat definition matched nearby',
    },
    events_incidents: {
      value: round(eventScore),
      weight: w.events_incidents,
      detail: `${events.length} event(s) and ${incidents.size} incident(s) within ${CABLE_RISK.activityM} m`,
    },
  };
  // Activity near a point far from any line threatens no line: it counts as the line is near.
  const activityPart =
    w.vessel_activity * activity +
    w.anchoring_loitering * anchoring +
    w.threat_definitions * definitions +
    w.events_incidents * eventScore;
  const risk = Math.round(100 * (w.distance * distance + activityPart * distance));
  return {
    location: at,
    risk,
    severity: severityOfScore(risk),
    nearest_lines: lines,
    factors,
    window: { from, to },
    notes,
  };
}

const isStill = (p: StoredPosition) =>
  (p.nav_status !== null && (CABLE_RISK.anchoredStatuses as readonly number[]).includes(p.nav_status)) ||
  (p.sog_knots !== null && p.sog_knots <= BEHAVIOUR.loiterMaxKnots);

/** The tenant's events of the line-threat types within the activity distance in the window (one Query per type). */
async function eventsNear(tenantId: TenantId, at: { lat: number; lon: number }, fromMs: number, toMs: number) {
  const pages = await Promise.all(
    LINE_EVENT_TYPES.map((type) =>
      listEvents(
        tenantId,
        { type, fromId: timeIdBound(fromMs, 'low'), toId: timeIdBound(toMs, 'high') },
        { limit: 200, offset: 0 },
      ),
    ),
  );
  return pages
    .flatMap((p) => p.events)
    .filter((e) => e.location && metresBetween(e.location, at) <= CABLE_RISK.activityM);
}
