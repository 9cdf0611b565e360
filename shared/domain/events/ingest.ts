/**
 * Ingest: events are checked against the caller's tenant (a referenced environment or sensor of
 * another tenant is 404), located (the sensor's location by default), matched against the
 * environment's zone geofences, scored, and stored. A client-supplied event id makes each event
 * idempotent on its own; an event id used before with other content is 409. Storing is the one
 * thing that must succeed: EventBridge publication follows from the table's stream.
 */
import { environmentFrom, environmentKey } from '../../db/environments.js';
import { eventItem, eventKey, storedEventFrom, writeAll, type StoredEvent } from '../../db/events.js';
import { giveUpSequences, renumberStale, reserveSequences, withSequence } from '../../db/event-sequence.js';
import { Prefetched, readItems, type ItemKey } from '../../db/read-batch.js';
import {
  SITE_KINDS,
  siteEntityFrom,
  siteEntityKey,
  siteRevisionFrom,
  siteRevisionKey,
} from '../../db/site-entities.js';
import { tenantConfigFrom, tenantConfigKey, tenantFrom, tenantKey } from '../../db/tenants.js';
import { ConflictError, invalid, NotFoundError, PayloadTooLargeError, type Loc } from '../../errors.js';
import { newTimeId, now, timeOfId } from '../../ids.js';
import { metrics, type IngestMode } from '../../metrics.js';
import type { Actor } from '../actor.js';
import {
  ENVIRONMENT_NOT_FOUND,
  healthOf,
  SENSOR_NOT_FOUND,
  touchSensor,
  type StoredSensor,
  type Zone,
  activeZones,
} from '../sites/index.js';
import { geofenceContains } from '../geo/index.js';
import {
  contentHash,
  type Attempt,
  zoneEventsOfClosedMinutes,
  type TenantEvents,
  type ZoneMinute,
} from '../requests/index.js';
import { defaultTenantConfig, eventExpiry, eventRetentionDays, type TenantConfig } from '../accounts/index.js';
import { scoreEvent } from './scoring.js';
import { SEQUENCE_WRITE_WINDOW_MS } from './stream.js';
import { libraryRevisionFrom, libraryRevisionKey } from '../../db/threat-libraries.js';
import { tenantDefinitions, matchEvent, type CompiledDefinition } from '../threat-libraries/index.js';
import { agentSettingsKey } from '../../db/agents.js';
import { disabledAgentsFrom } from '../agents/index.js';
import { openIncidentsForEvents } from '../incidents/index.js';
import type { EventInput } from '../../schemas/events.js';
import type { TenantId } from '../../vocabulary/tenant.js';

export type { EventInput };

/** How far ahead of the time it is received a client-made event id's time may be. */
const CLIENT_ID_AHEAD_MS = 60_000;
/**
 * How old a client-made event id may be: a client retrying a batch (the retry window of the
 * contract) sends the same ids, and those not stored yet must still be taken.
 */
const CLIENT_ID_AGE_MS = 24 * 3600_000;
/**
 * A sensor's `last_seen_at` moves when a report is at least this much newer than the one
 * recorded: a sensor reporting every second costs one write a minute, not one per report, and
 * health (minutes of silence) is unaffected.
 */
const LAST_SEEN_RESOLUTION_MS = 60_000;
/** An event's `payload`, as JSON, at most (docs/events.md): the item stays far under DynamoDB's 400 KB, the bus entry under 256 KB. */
export const MAX_PAYLOAD_BYTES = 16 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);

/**
 * The items one event needs read in `tenantId`: its configuration, the zone and threat-library
 * revisions (whether the zones and definitions kept from earlier requests are current), its sensor (else its environment), a client-made id.
 */
function lookupsOf(
  tenantId: TenantId,
  input: { sensor_id?: unknown; environment_id?: unknown; event_id?: unknown },
): ItemKey[] {
  const keys: ItemKey[] = [
    // The tenant: its plan caps the events' retention (the caller's own was read with the caller).
    tenantKey(tenantId),
    tenantConfigKey(tenantId),
    siteRevisionKey(SITE_KINDS.zone, tenantId),
    libraryRevisionKey(tenantId),
    agentSettingsKey(tenantId),
  ];
  if (isUuid(input.sensor_id)) keys.push(siteEntityKey(SITE_KINDS.sensor, tenantId, input.sensor_id));
  else if (isUuid(input.environment_id)) keys.push(environmentKey(tenantId, input.environment_id));
  if (isUuid(input.event_id)) keys.push(eventKey(tenantId, input.event_id));
  return keys;
}

/**
 * The keys ingest will read in the caller's tenant for these (unchecked) inputs: its
 * configuration, the sensors, the environments of events without a sensor, and client-made event
 * ids (a retry). The handler chain reads them with the caller, in one trip.
 */
export function ingestLookups(tenantId: TenantId, inputs: unknown[]): ItemKey[] {
  return inputs
    .slice(0, 100)
    .filter((input): input is Record<string, unknown> => Boolean(input) && typeof input === 'object')
    .filter((input) => input.tenant_id === undefined || input.tenant_id === tenantId)
    .flatMap((input) => lookupsOf(tenantId, input));
}

/** Lookups shared by every event of one request, so a batch of 100 reads each thing once. */
class IngestContext {
  private tenants = new Map<string, Promise<TenantId>>();
  private zones = new Map<string, Promise<Zone[]>>();
  private activity = new Map<TenantId, Promise<Map<string, number>>>();
  private definitions = new Map<TenantId, Promise<CompiledDefinition[]>>();
  private configs = new Map<TenantId, TenantConfig>();
  private sensors = new Map<string, StoredSensor | null>();

  constructor(
    private readonly decideTenant: TenantDecider,
    readonly read: Prefetched,
  ) {}

  private once<K, T>(map: Map<K, Promise<T>>, key: K, load: () => Promise<T>): Promise<T> {
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
  /** Reads, in one trip, whatever the edge did not read already. */
  async load(lookups: ItemKey[]): Promise<void> {
    await readItems(lookups, this.read);
  }
  config(tenantId: TenantId): TenantConfig {
    let config = this.configs.get(tenantId);
    if (!config) {
      config = tenantConfigFrom(this.read, tenantId) ?? defaultTenantConfig(tenantId, now());
      this.configs.set(tenantId, config);
    }
    return config;
  }
  /** Days the tenant's events are kept: its configuration's, at most its plan's (docs/plans.md). */
  retentionDays(tenantId: TenantId): number {
    const configured = this.config(tenantId).retention_days.events;
    const plan = tenantFrom(this.read, tenantId)?.plan;
    return plan ? eventRetentionDays(plan, configured) : configured;
  }
  sensor(tenantId: TenantId, sensorId: string): StoredSensor | null {
    const key = `${tenantId}/${sensorId}`;
    let sensor = this.sensors.get(key);
    if (sensor === undefined) {
      sensor = siteEntityFrom<StoredSensor>(this.read, SITE_KINDS.sensor, tenantId, sensorId) ?? null;
      this.sensors.set(key, sensor);
    }
    return sensor;
  }
  environmentExists(tenantId: TenantId, environmentId: string): boolean {
    return Boolean(environmentFrom(this.read, tenantId, environmentId));
  }
  /** The environment's active zones, at the zone revision read with the other lookups. */
  activeZones(tenantId: TenantId, environmentId: string, atMs: number) {
    // Not read (it always is, with the lookups): then nothing kept is trusted, and nothing is kept.
    const revision = siteRevisionFrom(this.read, SITE_KINDS.zone, tenantId) ?? { revision: -1, changedAtMs: atMs };
    return this.once(this.zones, `${tenantId}/${environmentId}`, () =>
      activeZones(tenantId, environmentId, revision, atMs),
    );
  }
  /**
   * The tenant's active threat definitions, at the library revision read with the other lookups;
   * none while the tenant has switched the threat-correlation agent off.
   */
  threatDefinitions(tenantId: TenantId) {
    if (!this.agentOn(tenantId, 'threat-correlation')) return Promise.resolve([] as CompiledDefinition[]);
    return this.once(this.definitions, tenantId, () =>
      tenantDefinitions(tenantId, libraryRevisionFrom(this.read, tenantId)?.revision),
    );
  }
  /** Whether the tenant has the agent on (its settings read with the other lookups). */
  agentOn(tenantId: TenantId, agentId: string): boolean {
    return !disabledAgentsFrom(this.read, tenantId).includes(agentId);
  }
  /** Events per zone of the tenant in the hour's closed minutes (the current one comes back from the meter). */
  closedActivity(tenantId: TenantId, atMs: number) {
    return this.once(this.activity, tenantId, () => zoneEventsOfClosedMinutes(tenantId, atMs));
  }
}

/** What one event needs looked up, decided before anything is read. */
interface Located {
  input: EventInput;
  tenantId: TenantId;
  loc: Loc;
}

/** An event before it is scored: what it is, where, which zones it falls in. */
interface Draft {
  event: StoredEvent;
  hash: string;
  expiresAt: number;
  clientId: boolean;
  sensor: StoredSensor | null;
  zones: Zone[];
}

/** The sensor, environment and location of an event, checked against its tenant's items. */
function resolve(ctx: IngestContext, { input, tenantId, loc }: Located) {
  const sensor = input.sensor_id ? ctx.sensor(tenantId, input.sensor_id) : null;
  if (input.sensor_id && !sensor) throw new NotFoundError(SENSOR_NOT_FOUND);
  if (sensor && input.environment_id && sensor.environment_id !== input.environment_id) {
    throw invalid([...loc, 'sensor_id'] as Loc, 'the sensor is not in this environment', 'value_error');
  }
  // A sensor's environment exists: an environment is deleted only once it is empty.
  if (!sensor && input.environment_id && !ctx.environmentExists(tenantId, input.environment_id))
    throw new NotFoundError(ENVIRONMENT_NOT_FOUND);
  return {
    sensor,
    environmentId: sensor?.environment_id ?? input.environment_id ?? null,
    location: input.location ?? sensor?.location ?? null,
  };
}

function draft(
  ctx: IngestContext,
  located: Located,
  where: ReturnType<typeof resolve>,
  zones: Zone[],
  at: string,
  madeId: () => string,
): Draft {
  const { input, tenantId } = located;
  const { sensor, environmentId, location } = where;
  // A server-made id carries the time it was received, so date filters (id ranges) and
  // received_at agree to the millisecond.
  const eventId = input.event_id ?? madeId();
  const receivedAt = input.event_id ? at : new Date(timeOfId(eventId)).toISOString();
  const occurredAt = input.occurred_at ? new Date(input.occurred_at).toISOString() : receivedAt;
  const matched = location ? zones.filter((z) => geofenceContains(z.geofence, location)) : [];
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
    matched_signatures: [],
    threat_score: null,
    threat_factors: null,
    processed: false,
    processed_at: null,
    incident_id: null,
  };
  // What the client said, without the tenant default: a retry hashes the same.
  const { tenant_id: _t, ...sent } = input;
  return {
    event,
    hash: contentHash({ ...sent, tenant_id: tenantId }),
    // From the time in its id, as reads and the re-stamping of a plan change count it.
    expiresAt: eventExpiry(timeOfId(eventId), ctx.retentionDays(tenantId)),
    clientId: input.event_id !== undefined,
    sensor,
    zones: matched,
  };
}

/**
 * Scores a drafted event. `recent` is the zones' events of the last hour before this request;
 * `batchHits` the request's own events counted so far, zone by zone.
 */
function score(
  ctx: IngestContext,
  d: Draft,
  input: EventInput,
  definitions: readonly CompiledDefinition[],
  recent: (zoneKey: string) => number,
  batchHits: Map<string, number>,
  at: string,
): void {
  const config = ctx.config(d.event.tenant_id);
  // A zone's events of the last hour: before this request, plus the events before this one in it.
  const before = (key: string) => recent(key) + (batchHits.get(key) ?? 0);
  const recentInZone = d.zones.length > 0 ? Math.max(...d.zones.map((z) => before(z.zone_id))) : 0;
  // Repeats of its type in each zone, this one included.
  const repeats = new Map(d.zones.map((z) => [z.zone_id, before(zoneTypeKey(z.zone_id, input.type)) + 1]));
  for (const key of zoneKeysOf(d.event)) batchHits.set(key, (batchHits.get(key) ?? 0) + 1);
  const matches =
    definitions.length === 0
      ? []
      : matchEvent(definitions, {
          type: input.type,
          occurredAt: d.event.occurred_at,
          timezone: config.timezone,
          zones: d.zones,
          description: d.event.description,
          payload: d.event.payload,
          repeatsInZone: (zoneId) => repeats.get(zoneId) ?? 0,
        });
  d.event.matched_signatures = matches;
  const { score: value, factors } = scoreEvent({
    type: input.type,
    occurredAt: d.event.occurred_at,
    zoneLevels: d.zones.map((z) => z.security_level),
    recentInZone,
    sensorHealth: d.sensor
      ? healthOf(d.sensor.last_seen_at, config.sensor_heartbeat_timeout_seconds, Date.parse(at))
      : null,
    reportedSeverity: input.severity ?? null,
    businessHours: { timezone: config.timezone, ...config.business_hours },
    signatures: matches,
  });
  d.event.threat_score = value;
  d.event.threat_factors = factors;
}

/** The minute counter of a zone's events of one type: repeats (threat definitions) are counted per zone and type. */
const zoneTypeKey = (zoneId: string, type: string) => `${zoneId}|${type}`;

/** The minute counters an event adds to: each of its zones, and each zone with its type. */
const zoneKeysOf = (event: StoredEvent): string[] =>
  event.matched_zone_ids.flatMap((z) => [z, zoneTypeKey(z, event.type)]);

/**
 * Decides the tenant an event names (its `tenant_id`, or none for the caller's own): the edge's
 * rule, handed in by the route (shared/auth/tenant.ts), never made here.
 */
export type TenantDecider = (requested?: string | null) => Promise<TenantId>;

/**
 * Counts the request against its tenant's rate and adds the new events (in all, and per zone) to
 * each tenant's minute of `atMs`, in one write for the caller's tenant; throws when the rate
 * refuses the request (then nothing is stored). Returns each tenant's minute counts of the zones
 * added to, this request's events included. Handed in by the edge (the handler chain's `meter`).
 */
export type IngestMeter = (stored: Map<TenantId, TenantEvents>, atMs: number) => Promise<Map<TenantId, ZoneMinute>>;

export interface IngestEdge {
  decideTenant: TenantDecider;
  meter: IngestMeter;
  /**
   * The attempt of a request sent with an Idempotency-Key: events without a client id take the
   * attempt's ids (the same in every attempt), and a resumed attempt looks them up first, so a
   * retry stores only what an earlier attempt did not.
   */
  attempt?: Attempt | null;
  /** What the edge read already (the caller's tenant's lookups, see `ingestLookups`). */
  read?: Prefetched;
  /**
   * How the edge reads what clients send before anything else (raw AIS sentences decoded:
   * shared/domain/vessels/ais-input.ts); handed in so that the service's own events (the vessel
   * tracker's) carry no decoder.
   */
  decode?: (input: EventInput) => EventInput;
  /**
   * How the events came, for the `EventsIngested` metric (shared/metrics.ts): one (POST /events)
   * or a batch (POST /events/batch). The service's own events (vessel positions, telemetry, manual
   * reports) leave it out and are not counted there.
   */
  mode?: IngestMode;
}

/**
 * Stores events (one or a batch) and returns them in the order given. All are stored, or the
 * request fails: a retry stores only what is missing. DynamoDB calls: the lookups the edge did
 * not make (one BatchGetItem), each environment's zones (a Query, only when the tenant's zones
 * changed since the container last read them: shared/domain/sites/zone-cache.ts), the hour's closed minutes of
 * the tenant (a Query, once a minute per tenant and container), the meter (an UpdateItem that
 * also answers the current minute's zone counts) and, at the same time, each tenant's range of
 * its store sequence (an UpdateItem per tenant: shared/db/event-sequence.ts), the events (BatchWriteItems of 25, at once; in time order, one after the other, for AIS positions),
 * and a sensor's last-seen time at most once a minute.
 */
export async function ingestEvents(
  actor: Actor,
  edge: IngestEdge,
  sent: EventInput[],
  locOf: (i: number) => Loc,
): Promise<StoredEvent[]> {
  // Raw AIS sentences are decoded first (by the edge's decoder): the vessel's position locates the event.
  const inputs = edge.decode ? sent.map(edge.decode) : sent;
  const ctx = new IngestContext(edge.decideTenant, edge.read ?? new Prefetched());
  const at = now();
  const atMs = Date.parse(at);

  // Limits before anything is read or stored.
  inputs.forEach((input, i) => {
    if (input.payload !== undefined && Buffer.byteLength(JSON.stringify(input.payload)) > MAX_PAYLOAD_BYTES) {
      throw new PayloadTooLargeError(
        `${[...locOf(i), 'payload'].join('.')} is larger than ${MAX_PAYLOAD_BYTES} bytes (16 KB) as JSON`,
      );
    }
  });
  const attempt = edge.attempt ?? null;
  const madeId = (i: number) => (attempt ? attempt.idAt(i) : newTimeId());
  const located: Located[] = [];
  for (const [i, input] of inputs.entries())
    located.push({ input, tenantId: await ctx.tenant(input.tenant_id), loc: locOf(i) });
  // A resumed attempt also looks up the ids it makes: an earlier attempt may have stored them.
  const madeIds = located.map(({ input }, i) => (input.event_id === undefined && attempt ? madeId(i) : undefined));
  const resumedLookups = attempt?.resumed
    ? located.flatMap(({ tenantId }, i) => (madeIds[i] ? [eventKey(tenantId, madeIds[i])] : []))
    : [];
  await ctx.load([...located.flatMap(({ input, tenantId }) => lookupsOf(tenantId, input)), ...resumedLookups]);
  const places = located.map((l) => resolve(ctx, l));

  // Zones of each environment with a located event, and the hour's closed minutes of each
  // tenant concerned, at once (the closed minutes are read once a minute per tenant and kept).
  const zonesOf = (i: number) => {
    const { environmentId, location } = places[i]!;
    return environmentId && location
      ? ctx.activeZones(located[i]!.tenantId, environmentId, atMs)
      : Promise.resolve([] as Zone[]);
  };
  const locatedTenants = new Set(
    located.filter((_, i) => places[i]!.environmentId && places[i]!.location).map((l) => l.tenantId),
  );
  const tenants = [...new Set(located.map((l) => l.tenantId))];
  const [zones, closed, definitions] = await Promise.all([
    Promise.all(located.map((_, i) => zonesOf(i))),
    Promise.all([...locatedTenants].map(async (t) => [t, await ctx.closedActivity(t, atMs)] as const)).then(
      (entries) => new Map(entries),
    ),
    Promise.all(tenants.map(async (t) => [t, await ctx.threatDefinitions(t)] as const)).then(
      (entries) => new Map(entries),
    ),
  ]);
  const drafts = located.map((l, i) => draft(ctx, l, places[i]!, zones[i]!, at, () => madeIds[i] ?? newTimeId()));

  const seen = new Set<string>();
  drafts.forEach((d, i) => {
    const key = `${d.event.tenant_id}/${d.event.event_id}`;
    if (seen.has(key))
      throw invalid([...locOf(i), 'event_id'] as Loc, 'this event_id appears twice in the batch', 'duplicate');
    seen.add(key);
  });

  // Events whose id (the client's, or a resumed attempt's) is stored already: the same content is
  // a retry, other content a conflict.
  const stored = new Map<string, StoredEvent>();
  for (const d of drafts.filter((x, i) => x.clientId || (attempt?.resumed && madeIds[i]))) {
    const found = storedEventFrom(ctx.read, d.event.tenant_id, d.event.event_id);
    if (!found) continue;
    if (found.hash !== d.hash)
      throw new ConflictError(`event_id ${d.event.event_id} was already used for another event`);
    stored.set(`${d.event.tenant_id}/${d.event.event_id}`, found.event);
  }

  const fresh = drafts.filter((d) => !stored.has(`${d.event.tenant_id}/${d.event.event_id}`));
  // A new event's own id orders it in time (lists, date filters, the live stream): one made after
  // it is sent, or more than a retry window before, would sit in the wrong place.
  fresh.forEach((d) => {
    const age = atMs - timeOfId(d.event.event_id);
    if (d.clientId && (age < -CLIENT_ID_AHEAD_MS || age > CLIENT_ID_AGE_MS)) {
      const i = drafts.indexOf(d);
      throw invalid(
        [...locOf(i), 'event_id'] as Loc,
        'must be a UUIDv7 made at most a minute ahead of sending and at most 24 hours before; for older events, leave event_id out and send an Idempotency-Key',
        'stale_id',
      );
    }
  });

  // The request counts (its rate, its new events per zone) before anything is written, and the
  // meter's write answers with the minute's counts of those zones, this request's included.
  const counted = new Map<TenantId, { events: number; zones: Map<string, number> }>();
  for (const d of fresh) {
    const counts = counted.get(d.event.tenant_id) ?? { events: 0, zones: new Map<string, number>() };
    counts.events++;
    for (const key of zoneKeysOf(d.event)) counts.zones.set(key, (counts.zones.get(key) ?? 0) + 1);
    counted.set(d.event.tenant_id, counts);
  }
  // Each tenant's numbers in its store sequence (the order of the live stream), reserved alongside
  // the meter's write, in the order the events are written. A request the meter refuses (or that
  // fails before writing) gives its numbers up, so open streams skip them at once.
  const tracked = fresh.some((d) => d.event.type === 'ais.position');
  const ordered = tracked ? [...fresh].sort((a, b) => a.event.occurred_at.localeCompare(b.event.occurred_at)) : fresh;
  const [metered, reserved] = await Promise.allSettled([
    edge.meter(counted, atMs),
    Promise.all([...counted].map(async ([t, c]) => [t, await reserveSequences(t, c.events)] as const)),
  ]);
  if (metered.status === 'rejected' || reserved.status === 'rejected') {
    if (reserved.status === 'fulfilled')
      await Promise.allSettled(reserved.value.map(([t, range]) => giveUpSequences(t, range)));
    throw metered.status === 'rejected' ? metered.reason : (reserved as PromiseRejectedResult).reason;
  }
  const minutes = metered.value;
  const ranges = new Map(reserved.value);
  const recentOf = (tenantId: TenantId) => (zoneId: string) =>
    (closed.get(tenantId)?.get(zoneId) ?? 0) +
    (minutes.get(tenantId)?.get(zoneId) ?? 0) -
    (counted.get(tenantId)?.zones.get(zoneId) ?? 0);
  const batchHits = new Map<string, number>();
  drafts.forEach((d, i) =>
    score(
      ctx,
      d,
      located[i]!.input,
      definitions.get(d.event.tenant_id) ?? [],
      recentOf(d.event.tenant_id),
      batchHits,
      at,
    ),
  );
  // AIS positions are written in time order, chunk after chunk: the vessel tracker reads a vessel's
  // track back when the stream brings a position, and must not find a later one of this request
  // stored while earlier ones are still being written (a gap that is not one). Other requests
  // write their chunks at once. No write is sent with numbers reserved more than
  // SEQUENCE_WRITE_WINDOW_MS before: those get new ones first (open streams stop waiting for a
  // number after GAP_TIMEOUT_MS).
  const next = new Map([...ranges].map(([t, range]) => [t, range.first]));
  await writeAll(
    ordered.map((d) => {
      const tenantId = d.event.tenant_id;
      const seq = next.get(tenantId)!;
      next.set(tenantId, seq + 1);
      const item = eventItem({ event: d.event, contentHash: d.hash, expiresAt: d.expiresAt });
      return withSequence(item, seq, ranges.get(tenantId)!.atMs);
    }),
    { inOrder: tracked, beforeAttempt: renumberStale(SEQUENCE_WRITE_WINDOW_MS) },
  );
  // Those stored now: a retry's events stored by an earlier attempt were counted then.
  if (edge.mode && fresh.length > 0) metrics.eventsIngested(fresh.length, edge.mode);

  // A report from a sensor shows it is alive; health follows from last_seen_at.
  const lastReport = new Map<string, { sensor: StoredSensor; at: string }>();
  for (const d of fresh) {
    if (!d.sensor) continue;
    const key = `${d.event.tenant_id}/${d.sensor.sensor_id}`;
    const reportedAt = d.event.occurred_at < at ? d.event.occurred_at : at;
    const previous = lastReport.get(key);
    if (!previous || previous.at < reportedAt) lastReport.set(key, { sensor: d.sensor, at: reportedAt });
  }
  for (const { sensor, at: reportedAt } of lastReport.values()) {
    const seen = sensor.last_seen_at ? Date.parse(sensor.last_seen_at) : null;
    if (seen !== null && Date.parse(reportedAt) - seen < LAST_SEEN_RESOLUTION_MS) continue;
    await touchSensor(sensor.tenant_id, sensor.sensor_id, reportedAt);
  }

  const result = drafts.map((d) => stored.get(`${d.event.tenant_id}/${d.event.event_id}`) ?? d.event);
  // Scores at or above the tenant's threshold open incidents (a retry finishes what a failed
  // attempt left: events stored but not linked yet).
  // No incident opens by itself while the tenant has switched the event-triage agent off.
  return openIncidentsForEvents(actor, result, (tenantId) =>
    ctx.agentOn(tenantId, 'event-triage') ? ctx.config(tenantId).incident_threshold : Infinity,
  );
}
