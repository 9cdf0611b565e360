/** Zones: areas of an environment with a geofence and a security level. */
import type { PageRequest } from '../../db/query.js';
import { SITE_KINDS } from '../../db/site-entities.js';
import { newId } from '../../ids.js';
import type { Actor } from '../actor.js';
import {
  assertValidGeofence,
  geofenceArea,
  geofenceBbox,
  geofenceContains,
  type Geofence,
  type LatLon,
} from '../geo/index.js';
import { createInEnvironment, deleteInTenant, findInTenant, listInEnvironment, updateInTenant } from './entities.js';
import {
  listSiteEntitiesOfEnvironment,
  listSiteEntitiesOfTenant,
  withoutVersion,
  type SiteEntityBase,
} from '../../db/site-entities.js';
import { NotFoundError } from '../../errors.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { zoneCreate, zoneUpdate } from '../../schemas/zones.js';
import type { Zone } from '../../db/site-entities.js';
import type { TenantId } from '../../vocabulary/tenant.js';

export type { Zone } from '../../db/site-entities.js';

export const ZONE_NOT_FOUND = 'Zone not found';
const KIND = SITE_KINDS.zone;

export type ZoneCreate = InputOf<typeof zoneCreate>;

/** The ids of an environment's active zones whose geofence contains `at` (one Query). */
export async function zonesAt(tenantId: TenantId, environmentId: string, at: LatLon): Promise<string[]> {
  const zones = await listSiteEntitiesOfEnvironment<Zone>(KIND, tenantId, environmentId, { limit: 1000, offset: 0 });
  return zones.filter((z) => z.active && geofenceContains(z.geofence, at)).map((z) => z.zone_id);
}

/**
 * Where a point is when no environment is named (an anonymous report): the active zones of the
 * whole tenant whose geofence contains it (one Query of its zones, 1,000 at most), kept to the
 * environment of the first of them, since an incident is in one environment. Null when none does.
 */
export async function zonesAtInTenant(
  tenantId: TenantId,
  at: LatLon,
): Promise<{ environmentId: string; zoneIds: string[] } | null> {
  const zones = await listSiteEntitiesOfTenant<Zone>(KIND, tenantId, { limit: 1000, offset: 0 });
  const containing = zones.filter((z) => z.active && geofenceContains(z.geofence, at));
  const first = containing[0];
  if (!first) return null;
  return {
    environmentId: first.environment_id,
    zoneIds: containing.filter((z) => z.environment_id === first.environment_id).map((z) => z.zone_id),
  };
}

export type ZoneUpdate = InputOf<typeof zoneUpdate>;

/** Area (rounded to cm²) and bounding box, kept with the zone for maps and listings. */
function measured(geofence: Geofence) {
  return { area_m2: Math.round(geofenceArea(geofence) * 10000) / 10000, bbox: geofenceBbox(geofence) };
}

export function createZone(actor: Actor, tenantId: TenantId, input: ZoneCreate): Promise<Zone> {
  return createInEnvironment<Zone>(
    actor,
    KIND,
    tenantId,
    input.environment_id,
    ({ tenantId, environmentId, at }) => {
      assertValidGeofence(input.geofence, ['body', 'geofence']);
      return {
        zone_id: newId(),
        tenant_id: tenantId,
        environment_id: environmentId,
        name: input.name.trim(),
        type: input.type ?? 'other',
        security_level: input.security_level ?? 3,
        geofence: input.geofence,
        description: input.description ?? null,
        active: input.active ?? true,
        ...measured(input.geofence),
        created_at: at,
        updated_at: at,
      };
    },
    (z) => ({ name: z.name, type: z.type, security_level: z.security_level, geofence_type: z.geofence.type }),
  );
}

export async function findZone(actor: Actor, zoneId: string, tenantId: TenantId): Promise<Zone> {
  return withoutVersion(await findInTenant<Zone>(KIND, tenantId, zoneId, ZONE_NOT_FOUND));
}

export function listZones(actor: Actor, tenantId: TenantId, environmentId: string, page: PageRequest): Promise<Zone[]> {
  return listInEnvironment<Zone>(KIND, tenantId, environmentId, page);
}

export function updateZone(actor: Actor, zoneId: string, tenantId: TenantId, update: ZoneUpdate): Promise<Zone> {
  return updateInTenant<Zone>(actor, KIND, zoneId, tenantId, ZONE_NOT_FOUND, (current) => {
    const next: Partial<Zone> = { ...update };
    if (update.name !== undefined) next.name = update.name.trim();
    if (update.geofence) {
      assertValidGeofence(update.geofence, ['body', 'geofence']);
      Object.assign(next, measured(update.geofence));
    }
    return { ...next, tenant_id: current.tenant_id };
  });
}

/** Deletes the zone; sensors that watched it keep working with no zone (each change audited). */
export async function deleteZone(actor: Actor, zoneId: string, tenantId: TenantId): Promise<void> {
  const zone = await deleteInTenant<Zone>(actor, KIND, zoneId, tenantId, ZONE_NOT_FOUND, (z) => ({ name: z.name }));
  const watching = await listSiteEntitiesOfEnvironment<SiteEntityBase & { sensor_id: string }>(
    SITE_KINDS.sensor,
    zone.tenant_id,
    zone.environment_id,
    { limit: 10_000, offset: 0 },
    { filter: { zone_id: zoneId } },
  );
  for (const sensor of watching) {
    await updateInTenant<SiteEntityBase & { zone_id: string | null }>(
      actor,
      SITE_KINDS.sensor,
      sensor.sensor_id,
      tenantId,
      'Sensor not found',
      () => ({ zone_id: null }),
    ).catch((err: unknown) => {
      // A sensor deleted meanwhile needs no clearing.
      if (!(err instanceof NotFoundError)) throw err;
    });
  }
}
