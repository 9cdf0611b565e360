/**
 * Sensors of an environment. Health is derived on every read from the last report and the
 * tenant's heartbeat timeout, never stored, so it cannot go stale: online within half the timeout,
 * degraded within the whole, offline beyond it or when never seen.
 */
import type { PageRequest } from '../../db/query.js';
import { getSiteEntity, SITE_KINDS, touchSiteEntity, withoutVersion } from '../../db/site-entities.js';
import { getTenantConfig } from '../../db/tenants.js';
import { invalid, NotFoundError, type Loc } from '../../errors.js';
import { newId, now } from '../../ids.js';
import type { Actor } from '../actor.js';
import {
  createInEnvironment,
  deleteInTenant,
  findInTenant,
  listInEnvironment,
  updateInTenant,
  type PlanLimitHold,
} from './entities.js';
import { getPlanCount, seedPlanCount } from '../../db/plan-counts.js';
import { planLimitReached, planOf } from '../accounts/index.js';
import { ZONE_NOT_FOUND, type Zone } from './zones.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { sensorCreate, sensorScopeQuery, sensorUpdate } from '../../schemas/sensors.js';
import type { FibreConfig, InfrastructureFile, StoredSensor } from '../../db/site-entities.js';

/** `<file_id>:<line in the file>` split in two. */
export function splitLineId(lineId: string): [string, string] {
  const at = lineId.indexOf(':');
  return [lineId.slice(0, at), lineId.slice(at + 1)];
}
import type { TenantId } from '../../vocabulary/tenant.js';
import type { TenantPlan } from '../../vocabulary/plans.js';

export type { StoredSensor } from '../../db/site-entities.js';

export const SENSOR_NOT_FOUND = 'Sensor not found';
export const LINE_NOT_FOUND = 'Line not found';
const KIND = SITE_KINDS.sensor;
const DEFAULT_HEARTBEAT_TIMEOUT_SECONDS = 300;

export type SensorHealth = 'online' | 'degraded' | 'offline';

export interface Sensor extends StoredSensor {
  health: SensorHealth;
}

export type SensorCreate = InputOf<typeof sensorCreate>;

export type SensorUpdate = InputOf<typeof sensorUpdate>;

/** Optional scoping as the spec has it: the tenant, and an environment the sensor must be in. */
export type SensorScope = InputOf<typeof sensorScopeQuery>;

export function healthOf(lastSeenAt: string | null, timeoutSeconds: number, at = Date.now()): SensorHealth {
  if (!lastSeenAt) return 'offline';
  const silentMs = at - Date.parse(lastSeenAt);
  if (silentMs <= (timeoutSeconds * 1000) / 2) return 'online';
  if (silentMs <= timeoutSeconds * 1000) return 'degraded';
  return 'offline';
}

async function heartbeatTimeout(tenantId: TenantId): Promise<number> {
  return (await getTenantConfig(tenantId))?.sensor_heartbeat_timeout_seconds ?? DEFAULT_HEARTBEAT_TIMEOUT_SECONDS;
}

function withHealth(sensor: StoredSensor, timeoutSeconds: number): Sensor {
  return { ...sensor, fibre: sensor.fibre ?? null, health: healthOf(sensor.last_seen_at, timeoutSeconds) };
}

/**
 * A fibre mapping is for a fibre_optic sensor only, names a line of the tenant's, and says where
 * its channels lie: by a spacing, or by calibration points with channels increasing.
 */
async function checkFibre(
  tenantId: TenantId,
  type: string,
  fibre: FibreConfig | null | undefined,
  loc: Loc,
): Promise<void> {
  if (!fibre) return;
  // The line first: another tenant's is unknown here, as any reference (404), whatever else is wrong.
  // The file's item says enough (read from the table; the line's vertices are read at ingest).
  const [fileId, lineId] = splitLineId(fibre.line_id);
  const file = await getSiteEntity<InfrastructureFile>(SITE_KINDS.file, tenantId, fileId);
  const featureIndex = Number(lineId.split('.')[0]);
  const hasLine =
    file &&
    file.geometry_types.some((t) => /LineString|GeometryCollection/.test(t)) &&
    featureIndex < file.feature_count;
  if (!hasLine) throw new NotFoundError(LINE_NOT_FOUND);
  if (type !== 'fibre_optic') throw invalid(loc, 'only a fibre_optic sensor has a fibre mapping', 'value_error');
  if (fibre.calibration) {
    if (fibre.channel_spacing_m !== undefined)
      throw invalid([...loc, 'calibration'], 'give calibration points or a channel spacing, not both', 'value_error');
    fibre.calibration.forEach((p, i) => {
      if (i > 0 && p.channel <= fibre.calibration![i - 1]!.channel)
        throw invalid([...loc, 'calibration', i, 'channel'], 'channels must increase', 'value_error');
    });
  } else if (fibre.channel_spacing_m === undefined) {
    throw invalid([...loc, 'channel_spacing_m'], 'a channel spacing (or calibration points) is required', 'missing');
  }
}

/**
 * A zone given for a sensor must be a zone of the same environment; any other (another tenant's
 * included) is answered as an unknown zone.
 */
async function assertZoneOf(
  tenantId: TenantId,
  environmentId: string,
  zoneId: string | null | undefined,
): Promise<void> {
  if (!zoneId) return;
  const zone = await getSiteEntity<Zone>(SITE_KINDS.zone, tenantId, zoneId);
  if (!zone || zone.environment_id !== environmentId) throw new NotFoundError(ZONE_NOT_FOUND);
}

/** The plan's sensor limit, held by the tenant's count (shared/db/plan-counts.ts). */
function sensorLimit(tenantId: TenantId, plan: TenantPlan): PlanLimitHold {
  const allowed = planOf(plan).limits.sensors;
  return {
    allowed,
    whenRefused: async (attempt) => {
      const count =
        (await getPlanCount(tenantId, 'sensors')) ?? (await seedPlanCount(tenantId, 'sensors', KIND.prefix));
      if (attempt >= 3 || (allowed !== null && count >= allowed)) throw planLimitReached(plan, 'sensors', count);
    },
  };
}

/** Creates a sensor under the tenant's `plan`, whose sensor limit holds (402 past it, shared/db/plan-counts.ts). */
export async function createSensor(
  actor: Actor,
  tenantId: TenantId,
  input: SensorCreate,
  plan: TenantPlan,
): Promise<Sensor> {
  const sensor = await createInEnvironment<StoredSensor>(
    actor,
    KIND,
    tenantId,
    input.environment_id,
    async ({ tenantId, environmentId, at }) => {
      await assertZoneOf(tenantId, environmentId, input.zone_id);
      await checkFibre(tenantId, input.type, input.fibre, ['body', 'fibre']);
      return {
        sensor_id: newId(),
        tenant_id: tenantId,
        environment_id: environmentId,
        name: input.name.trim(),
        type: input.type,
        location: input.location,
        zone_id: input.zone_id ?? null,
        status: input.status ?? 'active',
        model: input.model ?? null,
        serial_number: input.serial_number ?? null,
        fibre: input.fibre ?? null,
        last_seen_at: null,
        created_at: at,
        updated_at: at,
      };
    },
    (s) => ({ name: s.name, type: s.type, zone_id: s.zone_id }),
    sensorLimit(tenantId, plan),
  );
  return withHealth(sensor, await heartbeatTimeout(sensor.tenant_id));
}

async function findStoredSensor(tenantId: TenantId, sensorId: string, scope: SensorScope) {
  const sensor = await findInTenant<StoredSensor>(KIND, tenantId, sensorId, SENSOR_NOT_FOUND);
  if (scope.environment_id && sensor.environment_id !== scope.environment_id) throw new NotFoundError(SENSOR_NOT_FOUND);
  return sensor;
}

export async function findSensor(tenantId: TenantId, sensorId: string, scope: SensorScope): Promise<Sensor> {
  const sensor = withoutVersion(await findStoredSensor(tenantId, sensorId, scope));
  return withHealth(sensor, await heartbeatTimeout(sensor.tenant_id));
}

export async function listSensors(tenantId: TenantId, environmentId: string, page: PageRequest): Promise<Sensor[]> {
  const sensors = await listInEnvironment<StoredSensor>(KIND, tenantId, environmentId, page);
  if (sensors.length === 0) return [];
  const timeout = await heartbeatTimeout(sensors[0]!.tenant_id);
  return sensors.map((s) => withHealth(s, timeout));
}

export async function updateSensor(
  actor: Actor,
  tenantId: TenantId,
  sensorId: string,
  scope: SensorScope,
  update: SensorUpdate,
): Promise<Sensor> {
  await findStoredSensor(tenantId, sensorId, scope);
  const sensor = await updateInTenant<StoredSensor>(
    actor,
    KIND,
    sensorId,
    tenantId,
    SENSOR_NOT_FOUND,
    async (current) => {
      if (update.zone_id !== undefined) await assertZoneOf(current.tenant_id, current.environment_id, update.zone_id);
      const fibre = update.fibre !== undefined ? update.fibre : current.fibre;
      if (update.fibre !== undefined || (update.type !== undefined && fibre)) {
        await checkFibre(
          current.tenant_id,
          update.type ?? current.type,
          fibre,
          update.fibre !== undefined ? ['body', 'fibre'] : ['body', 'type'],
        );
      }
      return { ...update, ...(update.name !== undefined ? { name: update.name.trim() } : {}) };
    },
  );
  return withHealth(sensor, await heartbeatTimeout(sensor.tenant_id));
}

export async function deleteSensor(
  actor: Actor,
  tenantId: TenantId,
  sensorId: string,
  scope: SensorScope,
): Promise<void> {
  await findStoredSensor(tenantId, sensorId, scope);
  await deleteInTenant<StoredSensor>(actor, KIND, sensorId, tenantId, SENSOR_NOT_FOUND, (s) => ({ name: s.name }));
}

/**
 * Records that the sensor reported now. Telemetry, not a configuration change: one conditional
 * update, not audited (heartbeats arrive every few seconds from every sensor).
 */
export async function recordHeartbeat(
  tenantId: TenantId,
  sensorId: string,
  scope: SensorScope,
  at = now(),
): Promise<Sensor> {
  const sensor = await touchSensor(tenantId, sensorId, at, scope.environment_id);
  if (!sensor) throw new NotFoundError(SENSOR_NOT_FOUND);
  return withHealth(sensor, await heartbeatTimeout(tenantId));
}

/**
 * Moves `last_seen_at` forward (never back), only for a sensor that exists (in `environmentId`,
 * when given); null when there is no such sensor, and then nothing was written.
 */
export async function touchSensor(
  tenantId: TenantId,
  sensorId: string,
  at: string,
  environmentId?: string,
): Promise<StoredSensor | null> {
  const sensor = await touchSiteEntity<StoredSensor>(KIND, tenantId, sensorId, at, environmentId);
  return sensor ? withoutVersion(sensor) : null;
}
