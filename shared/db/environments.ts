/**
 * Environments in the single table. An environment item counts what it holds (zones, sensors,
 * assets, files): every child is created and deleted in a transaction that moves the count and
 * checks the environment exists, so deleting an environment can check "empty" atomically and no
 * child can be created in an environment that is being deleted.
 */
import type { ItemKey, Prefetched } from './read-batch.js';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import { pick, putNew, versionedDelete, versionedUpdate } from './items.js';
import * as keys from './item-keys.js';
import { queryPage, type PageRequest } from './query.js';
import type { TransactItem } from './transact.js';
import type { TenantId } from '../vocabulary/tenant.js';

export interface Environment {
  environment_id: string;
  tenant_id: TenantId;
  name: string;
  type: string;
  status: string;
  description: string | null;
  location: { lat: number; lon: number } | null;
  address: string | null;
  /** ISO 3166-1 alpha-2, or null when not given. */
  country: string | null;
  created_at: string;
  updated_at: string;
}

export const CHILD_KINDS = ['zones', 'sensors', 'assets', 'files'] as const;
export type ChildKind = (typeof CHILD_KINDS)[number];

export interface StoredEnvironment extends Environment {
  version: number;
  counts: Record<ChildKind, number>;
}

const FIELDS = [
  'environment_id',
  'tenant_id',
  'name',
  'type',
  'status',
  'description',
  'location',
  'address',
  'created_at',
  'updated_at',
] as const;
const countAttribute = (kind: ChildKind) => `${kind}_count`;

function fromItem(item: Record<string, unknown>): StoredEnvironment {
  return {
    ...pick<Environment>(item, FIELDS),
    // Environments made before the field have none.
    country: typeof item.country === 'string' ? item.country : null,
    version: Number(item.version ?? 0),
    counts: Object.fromEntries(CHILD_KINDS.map((k) => [k, Number(item[countAttribute(k)] ?? 0)])) as Record<
      ChildKind,
      number
    >,
  };
}

export function publicEnvironment({ version: _v, counts: _c, ...env }: StoredEnvironment): Environment {
  return env;
}

/** The index keys that follow type and status. */
function indexKeys(e: Environment) {
  return {
    ...keys.environmentByType(e.tenant_id, e.type, e.created_at, e.environment_id),
    ...keys.environmentByStatus(e.tenant_id, e.status, e.created_at, e.environment_id),
  };
}

export function putNewEnvironment(e: Environment): TransactItem {
  return putNew({
    ...keys.environment(e.tenant_id, e.environment_id),
    ...keys.environmentDirectory(e.tenant_id, e.created_at, e.environment_id),
    ...indexKeys(e),
    entity: 'ENVIRONMENT',
    ...e,
    ...Object.fromEntries(CHILD_KINDS.map((k) => [countAttribute(k), 0])),
    version: 1,
  });
}

export function updateEnvironment(next: Environment, expectedVersion: number): TransactItem {
  const { environment_id: _id, tenant_id: _t, created_at: _c, ...fields } = next;
  return versionedUpdate(
    keys.environment(next.tenant_id, next.environment_id),
    { ...fields, ...indexKeys(next) },
    expectedVersion,
  );
}

/** Deletes the environment only if it is at `expectedVersion` and holds nothing. */
export function deleteEmptyEnvironment(e: StoredEnvironment): TransactItem {
  const item = versionedDelete(keys.environment(e.tenant_id, e.environment_id), e.version);
  const del = item.Delete!;
  const names: Record<string, string> = { ...del.ExpressionAttributeNames };
  const values: Record<string, unknown> = { ...del.ExpressionAttributeValues, ':zero': 0 };
  const empty = CHILD_KINDS.map((k, i) => {
    names[`#c${i}`] = countAttribute(k);
    return `#c${i} = :zero`;
  });
  return {
    Delete: {
      ...del,
      ConditionExpression: `${del.ConditionExpression} AND ${empty.join(' AND ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * Moves an environment's count of `kind` by `delta`, only if the environment exists: the part
 * of a child's creation or deletion transaction that keeps the two consistent.
 */
export function countChild(tenantId: TenantId, environmentId: string, kind: ChildKind, delta: 1 | -1): TransactItem {
  return {
    Update: {
      TableName: TABLE,
      Key: keys.environment(tenantId, environmentId),
      UpdateExpression: 'ADD #count :delta',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#count': countAttribute(kind) },
      ExpressionAttributeValues: { ':delta': delta },
    },
  };
}

export const environmentKey = (tenantId: TenantId, environmentId: string): ItemKey =>
  keys.environment(tenantId, environmentId);

/** The environment among items read in one batch: null when there is none, undefined when it was not read. */
export function environmentFrom(
  read: Prefetched,
  tenantId: TenantId,
  environmentId: string,
): StoredEnvironment | null | undefined {
  const item = read.get(environmentKey(tenantId, environmentId));
  return item ? fromItem(item) : item;
}

export async function getEnvironment(tenantId: TenantId, environmentId: string): Promise<StoredEnvironment | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: keys.environment(tenantId, environmentId), ConsistentRead: true }),
  );
  return out.Item ? fromItem(out.Item) : null;
}

export interface EnvironmentFilter {
  type?: string;
  status?: string;
}

/** By type (GSI2, status filtered), by status (GSI3), or all (GSI1); oldest first. */
export async function listEnvironments(
  tenantId: TenantId,
  filter: EnvironmentFilter,
  page: PageRequest,
): Promise<StoredEnvironment[]> {
  const created = '';
  let items;
  if (filter.type) {
    const { GSI2PK } = keys.environmentByType(tenantId, filter.type, created, '');
    items = await queryPage(
      { index: 'GSI2', pk: GSI2PK, ascending: true, filter: filter.status ? { status: filter.status } : undefined },
      page,
    );
  } else if (filter.status) {
    const { GSI3PK } = keys.environmentByStatus(tenantId, filter.status, created, '');
    items = await queryPage({ index: 'GSI3', pk: GSI3PK, ascending: true }, page);
  } else {
    const { GSI1PK } = keys.environmentDirectory(tenantId, created, '');
    items = await queryPage({ index: 'GSI1', pk: GSI1PK, ascending: true }, page);
  }
  return items.map(fromItem);
}
