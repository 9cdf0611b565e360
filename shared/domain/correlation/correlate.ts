/**
 * Cross-domain correlation (docs/correlation.md): what of a tenant's happened near an anchor (an
 * event, an incident, or a point and time) in place and time. Besides the anchor, each domain is
 * read through a key of its own, each read bounded (./reads.ts): the environments around the
 * anchor by their event index, the feeds' alert types by the type index, events in no environment
 * read by the grid cells of the mention index, and AIS positions by the vessel area index (one
 * Query per grid cell). Each match is scored by nearness in place and in time, equally weighted.
 */
import { getEvent, type StoredEvent } from '../../db/events.js';
import { getIncident } from '../../db/incidents.js';
import type { StoredPosition } from '../../db/vessels/index.js';
import { invalid, NotFoundError } from '../../errors.js';
import type { Infer } from '../../schemas/json-schema.js';
import { CORRELATION_DOMAINS, MAX_MATCHES_PER_DOMAIN, type correlationQuery } from '../../schemas/correlation.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { EVENT_NOT_FOUND, withinRetention } from '../events/index.js';
import { retentionFloorMs } from '../accounts/index.js';
import type { TenantPlan } from '../../vocabulary/plans.js';
import { positionsInArea } from '../vessels/index.js';
import { metresBetween } from '../../geo/distance.js';
import { ENVIRONMENT_REACH_M, eventsAround, FEED_TYPES, MAX_ENVIRONMENTS, READ_PER_KEY } from './reads.js';

export const CORRELATION_METHOD =
  'Matches are events of your tenant that occurred within radius_km (great-circle distance) and window_minutes of the anchor, and AIS vessels with a position in that circle and window (the closest position counts). ' +
  'Domains: sensors (source sensor), ais (vessel positions), feeds (connector hazard alerts, watchlist alerts and other source api events of a feed), reports (source human), other. ' +
  'score = 0.5 * (1 - distance / radius) + 0.5 * (1 - |time offset| / window); zones shared with the anchor are listed. Events without a location are not matched. ' +
  `Events are read per key, received in the window (and as long after it), at most ${READ_PER_KEY} from each: the events of the anchor's environment and of the ${MAX_ENVIRONMENTS - 1} nearest others (located within ${ENVIRONMENT_REACH_M / 1000} km of the circle, or without a location), the ${FEED_TYPES.join(' and ')} events, and the circle's grid cells in the index of events by place (events in no environment read). truncated says a bound was reached.`;

type Query = Infer<typeof correlationQuery>;
type Domain = (typeof CORRELATION_DOMAINS)[number];

interface Anchor {
  kind: 'event' | 'incident' | 'point';
  id: string | null;
  lat: number;
  lon: number;
  at: string;
  zone_ids: string[];
}

/** The anchor and, not shown, the environment it is in (an event's or an incident's). */
type AnchorIn = Anchor & { environmentId: string | null };

const FEED_TYPE_SET = new Set<string>(FEED_TYPES);
const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;

function domainOf(e: StoredEvent): Domain {
  if (e.source === 'sensor') return 'sensors';
  if (e.source === 'human') return 'reports';
  if (FEED_TYPE_SET.has(e.type)) return 'feeds';
  return 'other';
}

/**
 * The anchor: an event, an incident, or a point. Ids named are read first (an unknown one, or one
 * of another tenant, is 404 whatever else was sent); then exactly one anchor must have been given.
 */
async function anchorOf(tenantId: TenantId, q: Query, plan: TenantPlan, nowMs: number): Promise<AnchorIn> {
  const [event, incident] = await Promise.all([
    // An event the plan no longer keeps is unknown, as GET /events/{id} answers it.
    q.event_id !== undefined ? (withinRetention(q.event_id, plan) ? getEvent(tenantId, q.event_id) : null) : undefined,
    q.incident_id !== undefined ? getIncident(tenantId, q.incident_id) : undefined,
  ]);
  if (event === null) throw new NotFoundError(EVENT_NOT_FOUND);
  if (incident === null) throw new NotFoundError('Incident not found');
  const given = [event !== undefined, incident !== undefined, q.lat !== undefined || q.lon !== undefined].filter(
    Boolean,
  ).length;
  if (given !== 1) throw invalid(['query'], 'give one anchor: event_id, incident_id, or lat and lon', 'value_error');
  if (event) {
    if (!event.location)
      throw invalid(['query', 'event_id'], 'the event has no location: anchor on lat and lon instead', 'value_error');
    return {
      kind: 'event',
      id: event.event_id,
      ...event.location,
      at: event.occurred_at,
      zone_ids: event.matched_zone_ids ?? [],
      environmentId: event.environment_id,
    };
  }
  if (incident) {
    if (!incident.location)
      throw invalid(
        ['query', 'incident_id'],
        'the incident has no location: anchor on lat and lon instead',
        'value_error',
      );
    return {
      kind: 'incident',
      id: incident.incident_id,
      ...incident.location,
      at: incident.occurred_at ?? incident.created_at,
      zone_ids: incident.zone_ids,
      environmentId: incident.environment_id,
    };
  }
  if (q.lat === undefined) throw invalid(['query', 'lat'], 'required with lon', 'missing');
  if (q.lon === undefined) throw invalid(['query', 'lon'], 'required with lat', 'missing');
  return {
    kind: 'point',
    id: null,
    lat: q.lat,
    lon: q.lon,
    at: q.at ?? new Date(nowMs).toISOString(),
    zone_ids: [],
    environmentId: null,
  };
}

/** What happened near the anchor; of events, only those the tenant's `plan` still keeps (docs/plans.md). */
export async function correlate(tenantId: TenantId, q: Query, plan: TenantPlan, nowMs = Date.now()) {
  const { environmentId, ...anchor } = await anchorOf(tenantId, q, plan, nowMs);
  const floorMs = retentionFloorMs(plan, nowMs);
  const radiusM = q.radius_km * 1000;
  const windowMs = q.window_minutes * 60_000;
  const atMs = Date.parse(anchor.at);
  const from = new Date(atMs - windowMs).toISOString();
  const to = new Date(atMs + windowMs).toISOString();
  // An event is received at or after it occurs; one received up to a window late still counts.
  // Not before what the plan keeps: a window wholly older reads no events at all.
  const eventsFromMs = Math.max(atMs - windowMs, floorMs ?? -Infinity);
  const [page, positions] = await Promise.all([
    eventsFromMs > atMs + 2 * windowMs
      ? { events: [] as StoredEvent[], truncated: false }
      : eventsAround(tenantId, { ...anchor, environmentId }, radiusM, {
          receivedFromMs: eventsFromMs,
          receivedToMs: atMs + 2 * windowMs,
          occurredFrom: from,
          occurredTo: to,
        }),
    positionsInArea(tenantId, anchor, radiusM, from, to),
  ]);
  const scored = (distanceM: number, occurredAt: string) => {
    const offsetMs = Date.parse(occurredAt) - atMs;
    return {
      distance_km: round(distanceM / 1000),
      time_offset_minutes: round(offsetMs / 60_000, 1),
      score: round(0.5 * Math.max(0, 1 - distanceM / radiusM) + 0.5 * Math.max(0, 1 - Math.abs(offsetMs) / windowMs)),
    };
  };
  const groups = new Map<Domain, ReturnType<typeof eventMatch>[]>();
  function eventMatch(e: StoredEvent & { location: { lat: number; lon: number } }, distanceM: number) {
    const s = scored(distanceM, e.occurred_at);
    const shared = (e.matched_zone_ids ?? []).filter((z) => anchor.zone_ids.includes(z));
    return {
      kind: 'event' as 'event' | 'vessel',
      id: e.event_id,
      type: e.type as string | null,
      source: e.source as string | null,
      description: e.description,
      occurred_at: e.occurred_at,
      lat: e.location.lat,
      lon: e.location.lon,
      ...s,
      shared_zone_ids: shared,
      positions: 0,
      why: `${s.distance_km} km away, ${Math.abs(s.time_offset_minutes)} min ${s.time_offset_minutes < 0 ? 'before' : 'after'}${shared.length ? `, in ${shared.length} shared zone(s)` : ''}`,
    };
  }
  for (const e of page.events) {
    if (e.event_id === anchor.id || !e.location || e.type.startsWith('ais.')) continue;
    const t = Date.parse(e.occurred_at);
    if (t < atMs - windowMs || t > atMs + windowMs) continue;
    const distanceM = metresBetween(anchor, e.location);
    if (distanceM > radiusM) continue;
    const domain = domainOf(e);
    groups.set(domain, [...(groups.get(domain) ?? []), eventMatch({ ...e, location: e.location }, distanceM)]);
  }
  const vessels = new Map<string, { closest: StoredPosition; distanceM: number; count: number }>();
  for (const p of positions) {
    const distanceM = metresBetween(anchor, p);
    const had = vessels.get(p.mmsi);
    if (!had) vessels.set(p.mmsi, { closest: p, distanceM, count: 1 });
    else {
      had.count++;
      if (distanceM < had.distanceM) Object.assign(had, { closest: p, distanceM });
    }
  }
  const ais = [...vessels.values()].map(({ closest, distanceM, count }) => {
    const s = scored(distanceM, closest.occurred_at);
    const shared = closest.zone_ids.filter((z) => anchor.zone_ids.includes(z));
    return {
      kind: 'vessel' as const,
      id: closest.mmsi,
      type: null,
      source: null,
      description: null,
      occurred_at: closest.occurred_at,
      lat: closest.lat,
      lon: closest.lon,
      ...s,
      shared_zone_ids: shared,
      positions: count,
      why: `vessel ${closest.mmsi} came within ${s.distance_km} km, ${Math.abs(s.time_offset_minutes)} min ${s.time_offset_minutes < 0 ? 'before' : 'after'} (${count} position(s) in the circle)`,
    };
  });
  if (ais.length > 0) groups.set('ais', ais);
  return {
    anchor,
    radius_km: q.radius_km,
    window: { from, to },
    groups: [...groups]
      .map(([domain, matches]) => ({
        domain,
        count: matches.length,
        matches: matches.sort((a, b) => b.score - a.score).slice(0, MAX_MATCHES_PER_DOMAIN),
      }))
      .sort((a, b) => b.count - a.count),
    truncated: page.truncated,
    method: CORRELATION_METHOD,
  };
}
