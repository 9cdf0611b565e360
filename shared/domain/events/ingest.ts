/**
 * Ingest: events are checked against the caller's tenant (a referenced environment or sensor of
 * another tenant is 404), located (the sensor's location by default), matched against the
 * environment's zone geofences, scored, and stored. A client-supplied event id makes each event
 * idempotent on its own; an event id used before with other content is 409. Storing is the one
 * thing that must succeed: EventBridge publication follows from the table's stream.
 */
import { getEnvironment } from '../../db/environments.js';
import { eventFromItem, eventItem, existingEventHashes, writeAll, zoneHitsOfEnvironment, type StoredEvent } from '../../db/events.js';
import { getSiteEntity, listSiteEntitiesOfEnvironment, SITE_KINDS } from '../../db/site-entities.js';
import { getTenantConfig } from '../../db/tenants.js';
import { ConflictError, invalid, NotFoundError, type Loc } from '../../errors.js';
import { newTimeId, now, timeIdBound, timeOfId } from '../../ids.js';
import type { Actor } from '../actor.js';
import { ENVIRONMENT_NOT_FOUND } from '../environments.js';
import { geofenceContains } from '../geo/geofence.js';
import { contentHash } from '../idempotency.js';
import { healthOf, SENSOR_NOT_FOUND, touchSensor, type StoredSensor } from '../sensors.js';
import { defaultTenantConfig, type TenantConfig } from '../tenant-config.js';
import type { Zone } from '../zones.js';
import { scoreEvent } from './scoring.js';
import { openIncidentsForEvents } from '../incidents/from-events.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { eventCreate } from '../../schemas/events.js';
import type { TenantId } from '../../vocabulary/tenant.js';

export type EventInput = InputOf<typeof eventCreate>;

const HOUR_MS = 3600_000;
/** How far a client-made event id's time may be from the time it is first received. */
const CLIENT_ID_SKEW_MS = 60_000;
/** Most recent events read to measure a zone's density; beyond it the factor is saturated anyway. */
const DENSITY_READ_LIMIT = 500;

/** Lookups shared by every event of one request, so a batch of 100 reads each thing once. */
class IngestContext {
  private tenants = new Map<string, Promise<TenantId>>();
  private configs = new Map<string, Promise<TenantConfig>>();
  private environments = new Map<string, Promise<boolean>>();
  private sensors = new Map<string, Promise<StoredSensor | null>>();
  private zones = new Map<string, Promise<Zone[]>>();
  private density = new Map<string, Promise<string[]>>();

  constructor(private readonly decideTenant: TenantDecider) {}

  private once<T>(map: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
    let value = map.get(key);
    if (!value) {
      value = load();
      map.set(key, value);
    }
    return value;
  }

  tenant(requested?: string) {
    return this.once(this.tenants, requested ?? '', () => this.decideTenant(requested));
  }
  config(tenantId: TenantId) {
    return this.once(this.configs, tenantId, async () => (await getTenantConfig(tenantId)) ?? defaultTenantConfig(tenantId, now()));
  }
  environmentExists(tenantId: TenantId, environmentId: string) {
    return this.once(this.environments, `${tenantId}/${environmentId}`, async () => (await getEnvironment(tenantId, environmentId)) !== null);
  }
  sensor(tenantId: TenantId, sensorId: string) {
    return this.once(this.sensors, `${tenantId}/${sensorId}`, () => getSiteEntity<StoredSensor>(SITE_KINDS.sensor, tenantId, sensorId));
  }
  activeZones(tenantId: TenantId, environmentId: string) {
    return this.once(this.zones, `${tenantId}/${environmentId}`, async () =>
      (await listSiteEntitiesOfEnvironment<Zone>(SITE_KINDS.zone, tenantId, environmentId, { limit: 1000, offset: 0 })).filter((z) => z.active),
    );
  }
  /** Zone ids matched by the environment's events of the last hour before `sinceMs`, one entry per event and zone. */
  recentZoneHits(tenantId: TenantId, environmentId: string, sinceMs: number) {
    return this.once(this.density, `${tenantId}/${environmentId}`, async () => {
      const fromId = timeIdBound(sinceMs - HOUR_MS, 'low');
      return zoneHitsOfEnvironment(tenantId, environmentId, fromId, timeIdBound(sinceMs, 'high'), DENSITY_READ_LIMIT);
    });
  }
}

interface Prepared {
  event: StoredEvent;
  hash: string;
  expiresAt: number;
  clientId: boolean;
}

async function prepare(ctx: IngestContext, input: EventInput, at: string, loc: Loc, batchHits: Map<string, number>): Promise<Prepared> {
  const tenantId = await ctx.tenant(input.tenant_id);
  // Independent lookups at once: one request's latency is a few round trips, not a dozen.
  const [config, sensor] = await Promise.all([
    ctx.config(tenantId),
    input.sensor_id ? ctx.sensor(tenantId, input.sensor_id) : Promise.resolve(null),
  ]);
  if (input.sensor_id && !sensor) throw new NotFoundError(SENSOR_NOT_FOUND);
  if (sensor && input.environment_id && sensor.environment_id !== input.environment_id) {
    throw invalid([...loc, 'sensor_id'] as Loc, 'the sensor is not in this environment', 'value_error');
  }
  const environmentId = sensor?.environment_id ?? input.environment_id ?? null;
  const location = input.location ?? sensor?.location ?? null;
  const [environmentExists, zones] = await Promise.all([
    environmentId ? ctx.environmentExists(tenantId, environmentId) : Promise.resolve(true),
    environmentId && location ? ctx.activeZones(tenantId, environmentId) : Promise.resolve([] as Zone[]),
  ]);
  if (!environmentExists) throw new NotFoundError(ENVIRONMENT_NOT_FOUND);

  // A server-made id carries the time it was received, so date filters (id ranges) and
  // received_at agree to the millisecond.
  const eventId = input.event_id ?? newTimeId();
  const receivedAt = input.event_id ? at : new Date(timeOfId(eventId)).toISOString();
  const occurredAt = input.occurred_at ? new Date(input.occurred_at).toISOString() : receivedAt;
  const matched = location ? zones.filter((z) => geofenceContains(z.geofence, location)) : [];
  let recentInZone = 0;
  if (matched.length > 0 && environmentId) {
    const hits = await ctx.recentZoneHits(tenantId, environmentId, Date.parse(at));
    recentInZone = Math.max(...matched.map((z) => hits.filter((id) => id === z.zone_id).length + (batchHits.get(z.zone_id) ?? 0)));
    for (const z of matched) batchHits.set(z.zone_id, (batchHits.get(z.zone_id) ?? 0) + 1);
  }
  const { score, factors } = scoreEvent({
    type: input.type,
    occurredAt,
    zoneLevels: matched.map((z) => z.security_level),
    recentInZone,
    sensorHealth: sensor ? healthOf(sensor.last_seen_at, config.sensor_heartbeat_timeout_seconds, Date.parse(at)) : null,
    reportedSeverity: input.severity ?? null,
    businessHours: { timezone: config.timezone, ...config.business_hours },
  });
  const event: StoredEvent = {
    event_id: eventId,
    tenant_id: tenantId,
    environment_id: environmentId,
    sensor_id: input.sensor_id ?? null,
    type: input.type,
    source: input.source ?? 'api',
    occurred_at: occurredAt,
    received_at: receivedAt,
    location,
    severity: input.severity ?? null,
    description: input.description ?? null,
    payload: input.payload ?? {},
    matched_zone_ids: matched.map((z) => z.zone_id),
    threat_score: score,
    threat_factors: factors,
    processed: false,
    processed_at: null,
    incident_id: null,
  };
  // What the client said, without the tenant default: a retry hashes the same.
  const { tenant_id: _t, ...sent } = input;
  return {
    event,
    hash: contentHash({ ...sent, tenant_id: tenantId }),
    expiresAt: Math.floor(Date.parse(at) / 1000) + config.retention_days.events * 86400,
    clientId: input.event_id !== undefined,
  };
}

/**
 * Stores events (one or a batch) and returns them in the order given. All are stored, or the
 * request fails: a retry stores only what is missing.
 */
/**
 * Decides the tenant an event names (its `tenant_id`, or none for the caller's own): the edge's
 * rule, handed in by the route (shared/auth/tenant.ts), never made here.
 */
export type TenantDecider = (requested?: string | null) => Promise<TenantId>;

export async function ingestEvents(actor: Actor, decideTenant: TenantDecider, inputs: EventInput[], locOf: (i: number) => Loc): Promise<StoredEvent[]> {
  const ctx = new IngestContext(decideTenant);
  const at = now();
  const batchHits = new Map<string, number>();
  const prepared: Prepared[] = [];
  for (const [i, input] of inputs.entries()) prepared.push(await prepare(ctx, input, at, locOf(i), batchHits));

  const seen = new Map<string, number>();
  prepared.forEach((p, i) => {
    const key = `${p.event.tenant_id}/${p.event.event_id}`;
    if (seen.has(key)) throw invalid([...locOf(i), 'event_id'] as Loc, 'this event_id appears twice in the batch', 'duplicate');
    seen.set(key, i);
  });

  // Events whose client-supplied id is stored already: the same content is a retry, other content a conflict.
  const byTenant = new Map<TenantId, Prepared[]>();
  for (const p of prepared.filter((x) => x.clientId)) byTenant.set(p.event.tenant_id, [...(byTenant.get(p.event.tenant_id) ?? []), p]);
  const stored = new Map<string, StoredEvent>();
  for (const [tenantId, group] of byTenant) {
    const existing = await existingEventHashes(tenantId, group.map((p) => p.event.event_id));
    for (const p of group) {
      const found = existing.get(p.event.event_id);
      if (!found) continue;
      if (found.hash !== p.hash) throw new ConflictError(`event_id ${p.event.event_id} was already used for another event`);
      stored.set(`${tenantId}/${p.event.event_id}`, eventFromItem(found.item));
    }
  }

  const fresh = prepared.filter((p) => !stored.has(`${p.event.tenant_id}/${p.event.event_id}`));
  // A new event's own id orders it in time (lists, date filters, the live stream): one made long
  // before (or after) it is sent would sit in the wrong place. Retries of stored ones are fine.
  const nowMs = Date.now();
  fresh.forEach((p) => {
    if (p.clientId && Math.abs(timeOfId(p.event.event_id) - nowMs) > CLIENT_ID_SKEW_MS) {
      const i = prepared.indexOf(p);
      throw invalid(
        [...locOf(i), 'event_id'] as Loc,
        'must be a UUIDv7 made within a minute of sending; for events sent later, leave event_id out and send an Idempotency-Key',
        'stale_id',
      );
    }
  });
  await writeAll(fresh.map((p) => eventItem({ event: p.event, contentHash: p.hash, expiresAt: p.expiresAt })));

  // A report from a sensor shows it is alive; health follows from last_seen_at.
  const lastReport = new Map<string, { tenantId: TenantId; at: string }>();
  for (const p of fresh) {
    if (!p.event.sensor_id) continue;
    const key = `${p.event.tenant_id}/${p.event.sensor_id}`;
    const previous = lastReport.get(key);
    const reportedAt = p.event.occurred_at < at ? p.event.occurred_at : at;
    if (!previous || previous.at < reportedAt) lastReport.set(key, { tenantId: p.event.tenant_id, at: reportedAt });
  }
  for (const [key, { tenantId, at: reportedAt }] of lastReport) await touchSensor(tenantId, key.split('/')[1]!, reportedAt);

  const result = prepared.map((p) => stored.get(`${p.event.tenant_id}/${p.event.event_id}`) ?? p.event);
  // Scores at or above the tenant's threshold open incidents (a retry finishes what a failed
  // attempt left: events stored but not linked yet).
  return openIncidentsForEvents(actor, result);
}
