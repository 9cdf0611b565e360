/** Assets: what a tenant protects, with a location, a geometry or both. */
import turfBbox from '@turf/bbox';
import type { Geometry } from 'geojson';
import type { PageRequest } from '../../db/query.js';
import { listSiteEntitiesOfTenant, SITE_KINDS, withoutVersion } from '../../db/site-entities.js';
import { invalid } from '../../errors.js';
import { newTimeId } from '../../ids.js';
import type { Actor } from '../actor.js';
import { createInEnvironment, deleteInTenant, findInTenant, listInEnvironment, updateInTenant } from './entities.js';
import type { InputOf } from '../../schemas/json-schema.js';
import type { assetCreate, assetListQuery, assetUpdate } from '../../schemas/assets.js';
import type { Asset } from '../../db/site-entities.js';
import type { TenantId } from '../../vocabulary/tenant.js';

export type { Asset } from '../../db/site-entities.js';

export const ASSET_NOT_FOUND = 'Asset not found';
const KIND = SITE_KINDS.asset;

export type AssetCreate = InputOf<typeof assetCreate>;

export type AssetUpdate = InputOf<typeof assetUpdate>;

export type AssetFilter = Omit<InputOf<typeof assetListQuery>, 'limit' | 'offset'>;

/** Positions nested as the geometry type says, each [lon, lat] in range. */
function assertGeometry(geometry: Geometry | null | undefined): void {
  if (!geometry || !('coordinates' in geometry)) return;
  const depth = { Point: 0, MultiPoint: 1, LineString: 1, MultiLineString: 2, Polygon: 2, MultiPolygon: 3 }[
    geometry.type
  ];
  const check = (value: unknown, level: number): boolean => {
    if (!Array.isArray(value)) return false;
    if (level === 0) {
      const [lon, lat] = value as number[];
      return (
        value.length >= 2 &&
        value.length <= 3 &&
        value.every((n) => typeof n === 'number' && Number.isFinite(n)) &&
        Math.abs(lon!) <= 180 &&
        Math.abs(lat!) <= 90
      );
    }
    return value.length > 0 && value.every((v) => check(v, level - 1));
  };
  if (depth === undefined || !check(geometry.coordinates, depth)) {
    throw invalid(
      ['body', 'geometry', 'coordinates'],
      `not valid ${geometry.type} coordinates ([lon, lat] in range)`,
      'geometry',
    );
  }
  if (geometry.type === 'LineString' && geometry.coordinates.length < 2) {
    throw invalid(['body', 'geometry', 'coordinates'], 'a LineString needs at least two positions', 'geometry');
  }
  turfBbox(geometry);
}

export function createAsset(actor: Actor, tenantId: TenantId, input: AssetCreate): Promise<Asset> {
  return createInEnvironment<Asset>(
    actor,
    KIND,
    tenantId,
    input.environment_id,
    ({ tenantId, environmentId, at }) => {
      if (!input.location && !input.geometry)
        throw invalid(['body'], 'an asset needs a location, a geometry or both', 'value_error');
      assertGeometry(input.geometry);
      return {
        // Time-ordered: a tenant's asset list reads in creation order by key.
        asset_id: newTimeId(),
        tenant_id: tenantId,
        environment_id: environmentId,
        name: input.name.trim(),
        type: input.type,
        criticality: input.criticality ?? 'medium',
        location: input.location ?? null,
        geometry: input.geometry ?? null,
        description: input.description ?? null,
        created_at: at,
        updated_at: at,
      };
    },
    (a) => ({ name: a.name, type: a.type, criticality: a.criticality }),
  );
}

export async function findAsset(actor: Actor, assetId: string, tenantId: TenantId): Promise<Asset> {
  return withoutVersion(await findInTenant<Asset>(KIND, tenantId, assetId, ASSET_NOT_FOUND));
}

/** A tenant's assets, or one environment's; type and criticality filter within. */
export async function listAssets(tenantId: TenantId, filter: AssetFilter, page: PageRequest): Promise<Asset[]> {
  const only = { type: filter.type, criticality: filter.criticality };
  if (filter.environment_id) {
    return listInEnvironment<Asset>(KIND, tenantId, filter.environment_id, page, { filter: only });
  }
  return (await listSiteEntitiesOfTenant<Asset>(KIND, tenantId, page, only)).map(withoutVersion);
}

export function updateAsset(actor: Actor, assetId: string, tenantId: TenantId, update: AssetUpdate): Promise<Asset> {
  return updateInTenant<Asset>(actor, KIND, assetId, tenantId, ASSET_NOT_FOUND, (current) => {
    if (update.geometry !== undefined) assertGeometry(update.geometry);
    const location = update.location === undefined ? current.location : update.location;
    const geometry = update.geometry === undefined ? current.geometry : update.geometry;
    if (!location && !geometry) throw invalid(['body'], 'an asset keeps a location or a geometry', 'value_error');
    return { ...update, ...(update.name !== undefined ? { name: update.name.trim() } : {}) };
  });
}

export async function deleteAsset(actor: Actor, assetId: string, tenantId: TenantId): Promise<void> {
  await deleteInTenant<Asset>(actor, KIND, assetId, tenantId, ASSET_NOT_FOUND, (a) => ({ name: a.name }));
}
