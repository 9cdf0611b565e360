/**
 * Things inside an environment (zones, sensors, assets, infrastructure files) share one storage
 * pattern: the item under the tenant by its own id, an entry in the environment's contents
 * (GSI1), and the environment's count of that kind moved in the same transaction.
 */
import type { ItemKey, Prefetched } from './read-batch.js';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AssetGeometry, Geofence, LatLon } from '../schemas/geo.js';
import type { INFRASTRUCTURE_FORMATS } from '../schemas/infrastructure.js';
import { db, TABLE } from './client.js';
import { countChild, type ChildKind } from './environments.js';
import { putNew, versionedDelete, versionedUpdate } from './items.js';
import * as keys from './item-keys.js';
import { tenantPk } from './keys.js';
import { queryPage, type PageRequest } from './query.js';
import { bumpRevision, revisionFrom, type Revision } from './revisions.js';
import type { TransactItem } from './transact.js';
import type { TenantId } from '../vocabulary/tenant.js';
import type { CountedLimit } from '../vocabulary/plans.js';
import { releasePlanCount, takePlanCount } from './plan-counts.js';

export interface SiteKind {
  /** The environment count this kind moves. */
  child: ChildKind;
  /** Sort-key prefix, e.g. `ZONE#`. */
  prefix: string;
  /** The entity marker stored on the item. */
  entity: string;
  /** The id field of the public shape, e.g. `zone_id`. */
  idField: string;
  /** The audit resource type, e.g. `zone`. */
  resource: string;
  /**
   * Every write of this kind also moves the tenant's revision of it, in the same transaction, so
   * a reader that read the revision (consistently) knows whether what it kept is still current.
   */
  revised?: true;
  /** A count the tenant's plan limits (shared/db/plan-counts.ts), moved with every create and delete. */
  planLimit?: CountedLimit;
}

export const SITE_KINDS = {
  // Ingest keeps each environment's zones between requests, by the tenant's zone revision.
  zone: { child: 'zones', prefix: 'ZONE#', entity: 'ZONE', idField: 'zone_id', resource: 'zone', revised: true },
  sensor: {
    child: 'sensors',
    prefix: 'SENSOR#',
    entity: 'SENSOR',
    idField: 'sensor_id',
    resource: 'sensor',
    planLimit: 'sensors',
  },
  asset: { child: 'assets', prefix: 'ASSET#', entity: 'ASSET', idField: 'asset_id', resource: 'asset' },
  file: {
    child: 'files',
    prefix: 'FILE#',
    entity: 'INFRASTRUCTURE_FILE',
    idField: 'file_id',
    resource: 'infrastructure_file',
  },
} as const satisfies Record<string, SiteKind>;

// The site entities as stored and shown (their keys and item mapping: SITE_KINDS and below).

export interface Zone {
  zone_id: string;
  tenant_id: TenantId;
  environment_id: string;
  name: string;
  type: string;
  security_level: number;
  geofence: Geofence;
  description: string | null;
  active: boolean;
  area_m2: number;
  bbox: [number, number, number, number];
  created_at: string;
  updated_at: string;
}

export interface Asset {
  asset_id: string;
  tenant_id: TenantId;
  environment_id: string;
  name: string;
  type: string;
  criticality: string;
  location: LatLon | null;
  geometry: AssetGeometry | null;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface StoredSensor {
  sensor_id: string;
  tenant_id: TenantId;
  environment_id: string;
  name: string;
  type: string;
  location: LatLon;
  zone_id: string | null;
  status: string;
  model: string | null;
  serial_number: string | null;
  /** A fibre_optic sensor's channel mapping and threshold (docs/fibre-telemetry.md); absent on sensors stored before it. */
  fibre?: FibreConfig | null;
  last_seen_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A fibre sensor's channels on a line (shared/schemas/sensors.ts fibreConfig). */
export interface FibreConfig {
  line_id: string;
  start_distance_m?: number;
  channel_spacing_m?: number;
  calibration?: { channel: number; distance_m: number }[];
  threshold: number;
}

/** What the API shows of a file. */
export interface InfrastructureFile {
  file_id: string;
  tenant_id: TenantId;
  environment_id: string;
  filename: string;
  format: (typeof INFRASTRUCTURE_FORMATS)[number];
  size_bytes: number;
  feature_count: number;
  geometry_types: string[];
  bbox: [number, number, number, number] | null;
  created_by: string;
  created_at: string;
}

/** What every site entity has. */
export interface SiteEntityBase {
  tenant_id: TenantId;
  environment_id: string;
  created_at: string;
}

export type StoredSiteEntity<T> = T & { version: number };

const INTERNAL = new Set([
  'PK',
  'SK',
  'GSI1PK',
  'GSI1SK',
  'GSI2PK',
  'GSI2SK',
  'GSI3PK',
  'GSI3SK',
  'entity',
  'expires_at',
]);

/** An item without its keys and markers: the stored entity (with `version`). */
export function siteEntityFromItem<T>(item: Record<string, unknown>): StoredSiteEntity<T> {
  return Object.fromEntries(Object.entries(item).filter(([k]) => !INTERNAL.has(k))) as StoredSiteEntity<T>;
}

export function withoutVersion<T>({ version: _v, ...rest }: StoredSiteEntity<T>): T {
  return rest as T;
}

/** The entity's own id (`zone_id`, `sensor_id`, ...). */
export function siteEntityId(kind: SiteKind, entity: object): string {
  return String(new Map(Object.entries(entity)).get(kind.idField));
}

/** The tenant's revision of a kind: its count of changes, and the time of the last one (ms). */
export type SiteRevision = Revision;

export const siteRevisionKey = (kind: SiteKind, tenantId: TenantId): ItemKey =>
  keys.siteRevision(tenantId, kind.prefix);

/** The revision among items read in one batch (none yet: revision 0, never changed); undefined when it was not read. */
export function siteRevisionFrom(read: Prefetched, kind: SiteKind, tenantId: TenantId): SiteRevision | undefined {
  return revisionFrom(read, siteRevisionKey(kind, tenantId));
}

/** Moves the tenant's revision of a revised kind (nothing for others). */
function revise(kind: SiteKind, tenantId: TenantId): TransactItem[] {
  return kind.revised ? [bumpRevision(siteRevisionKey(kind, tenantId))] : [];
}

/** The index of a create's plan count in its transaction (`createSiteEntity`). */
export const PLAN_COUNT_ITEM = 2;

/**
 * Creates the entity and counts it in its environment; fails if the environment is gone. Item 0
 * is the entity, item 1 the environment's count; for a kind the plan limits, item 2 the tenant's
 * count, which fails past `allowed` (the plan's limit; null: none) or when not yet seeded.
 */
export function createSiteEntity(kind: SiteKind, entity: SiteEntityBase, allowed?: number | null): TransactItem[] {
  const id = siteEntityId(kind, entity);
  if (kind.planLimit && allowed === undefined)
    throw new Error(`a ${kind.resource} needs its plan's limit to be created`);
  return [
    putNew({
      ...keys.siteEntity(entity.tenant_id, kind.prefix, id),
      ...keys.environmentContents(entity.tenant_id, entity.environment_id, kind.prefix, entity.created_at, id),
      entity: kind.entity,
      ...entity,
      version: 1,
    }),
    countChild(entity.tenant_id, entity.environment_id, kind.child, 1),
    ...(kind.planLimit ? [takePlanCount(entity.tenant_id, kind.planLimit, allowed ?? null)] : []),
    ...revise(kind, entity.tenant_id),
  ];
}

/** Item 0 is the versioned update. */
export function updateSiteEntity(
  kind: SiteKind,
  entity: SiteEntityBase,
  fields: Record<string, unknown>,
  expectedVersion: number,
): TransactItem[] {
  return [
    versionedUpdate(
      keys.siteEntity(entity.tenant_id, kind.prefix, siteEntityId(kind, entity)),
      fields,
      expectedVersion,
    ),
    ...revise(kind, entity.tenant_id),
  ];
}

/** Item 0 is the versioned delete, item 1 the environment's count. */
export function deleteSiteEntity(kind: SiteKind, entity: StoredSiteEntity<SiteEntityBase>): TransactItem[] {
  return [
    versionedDelete(keys.siteEntity(entity.tenant_id, kind.prefix, siteEntityId(kind, entity)), entity.version),
    countChild(entity.tenant_id, entity.environment_id, kind.child, -1),
    ...(kind.planLimit ? [releasePlanCount(entity.tenant_id, kind.planLimit)] : []),
    ...revise(kind, entity.tenant_id),
  ];
}

export const siteEntityKey = (kind: SiteKind, tenantId: TenantId, id: string): ItemKey =>
  keys.siteEntity(tenantId, kind.prefix, id);

/** The entity among items read in one batch: null when there is none, undefined when it was not read. */
export function siteEntityFrom<T>(
  read: Prefetched,
  kind: SiteKind,
  tenantId: TenantId,
  id: string,
): StoredSiteEntity<T> | null | undefined {
  const item = read.get(siteEntityKey(kind, tenantId, id));
  return item ? siteEntityFromItem<T>(item) : item;
}

export async function getSiteEntity<T>(
  kind: SiteKind,
  tenantId: TenantId,
  id: string,
): Promise<StoredSiteEntity<T> | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: keys.siteEntity(tenantId, kind.prefix, id), ConsistentRead: true }),
  );
  return out.Item ? siteEntityFromItem<T>(out.Item) : null;
}

/** The entities of one kind in an environment, oldest first (or newest first). */
export async function listSiteEntitiesOfEnvironment<T>(
  kind: SiteKind,
  tenantId: TenantId,
  environmentId: string,
  page: PageRequest,
  options: { newestFirst?: boolean; filter?: Record<string, unknown> } = {},
): Promise<StoredSiteEntity<T>[]> {
  const { GSI1PK } = keys.environmentContents(tenantId, environmentId, kind.prefix, '', '');
  const items = await queryPage(
    { index: 'GSI1', pk: GSI1PK, skPrefix: kind.prefix, ascending: !options.newestFirst, filter: options.filter },
    page,
  );
  return items.map((i) => siteEntityFromItem<T>(i));
}

/** The entities of one kind in a whole tenant, in id order (time order for UUIDv7 ids). */
export async function listSiteEntitiesOfTenant<T>(
  kind: SiteKind,
  tenantId: TenantId,
  page: PageRequest,
  filter?: Record<string, unknown>,
): Promise<StoredSiteEntity<T>[]> {
  const items = await queryPage(
    { pk: tenantPk(tenantId), skPrefix: kind.prefix, ascending: true, consistent: true, filter },
    page,
  );
  return items.map((i) => siteEntityFromItem<T>(i));
}

/**
 * Moves an entity's `last_seen_at` forward (never back), only if it exists (in `environmentId`,
 * when given): a sensor's heartbeat. The entity as it is then; null when there is no such entity.
 */
export async function touchSiteEntity<T>(
  kind: SiteKind,
  tenantId: TenantId,
  id: string,
  at: string,
  environmentId?: string,
): Promise<StoredSiteEntity<T> | null> {
  const inEnvironment = environmentId ? ' AND environment_id = :env' : '';
  try {
    const out = await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.siteEntity(tenantId, kind.prefix, id),
        UpdateExpression: 'SET last_seen_at = :at',
        ConditionExpression: `attribute_exists(PK)${inEnvironment} AND (attribute_not_exists(last_seen_at) OR last_seen_at = :null OR last_seen_at < :at)`,
        ExpressionAttributeValues: { ':at': at, ':null': null, ...(environmentId ? { ':env': environmentId } : {}) },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return siteEntityFromItem<T>(out.Attributes ?? {});
  } catch (err) {
    if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    // Either no such entity, or a later report is already recorded.
    const current = await getSiteEntity<T>(kind, tenantId, id);
    if (!current || (environmentId && (current as { environment_id?: string }).environment_id !== environmentId))
      return null;
    return current;
  }
}
