/** Tenants and tenant configurations in the single table. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TenantConfig } from '../schemas/tenants.js';
import { db, TABLE } from './client.js';
import { pick } from './items.js';
import * as keys from './item-keys.js';
import { TENANT_DIRECTORY_PK } from './keys.js';
import { queryPage, type PageRequest } from './query.js';
import type { TransactItem } from './transact.js';
import type { ItemKey, Prefetched } from './read-batch.js';

import type { TenantPlan } from '../vocabulary/plans.js';

export type { TenantPlan };
export type TenantStatus = 'active' | 'suspended';

export interface Tenant {
  tenant_id: string;
  name: string;
  plan: TenantPlan;
  status: TenantStatus;
  contact_email: string | null;
  created_at: string;
  updated_at: string;
}

/** A stored tenant: the public fields plus the version used for optimistic locking. */
export interface StoredTenant extends Tenant {
  version: number;
}

const TENANT_FIELDS = ['tenant_id', 'name', 'plan', 'status', 'contact_email', 'created_at', 'updated_at'] as const;

export function tenantFromItem(item: Record<string, unknown>): StoredTenant {
  const tenant = pick<Tenant>(item, TENANT_FIELDS);
  return { ...tenant, version: Number(item.version ?? 0) };
}

export function publicTenant({ version: _v, ...tenant }: StoredTenant): Tenant {
  return tenant;
}

function tenantItem(t: StoredTenant) {
  return {
    ...keys.tenant(t.tenant_id),
    ...keys.tenantDirectory(t.created_at, t.tenant_id),
    entity: 'TENANT',
    ...t,
  };
}

/** Creates the tenant; fails the transaction if the id exists. */
export function putNewTenant(t: StoredTenant): TransactItem {
  return { Put: { TableName: TABLE, Item: tenantItem(t), ConditionExpression: 'attribute_not_exists(PK)' } };
}

/** Replaces the tenant only if nobody changed it since `expectedVersion` was read. */
export function putTenantVersion(t: StoredTenant, expectedVersion: number): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: tenantItem(t),
      ConditionExpression: 'attribute_exists(PK) AND version = :v',
      ExpressionAttributeValues: { ':v': expectedVersion },
    },
  };
}

export const tenantKey = (tenantId: string): ItemKey => keys.tenant(tenantId);
export const tenantConfigKey = (tenantId: string): ItemKey => keys.tenantConfig(tenantId);

/** The tenant among items read in one batch; null when there is none. */
export function tenantFrom(read: Prefetched, tenantId: string): StoredTenant | null {
  const item = read.get(tenantKey(tenantId));
  return item ? tenantFromItem(item) : null;
}

/** The tenant's configuration among items read in one batch: null when it has none, undefined when it was not read. */
export function tenantConfigFrom(read: Prefetched, tenantId: string): StoredConfig | null | undefined {
  const item = read.get(tenantConfigKey(tenantId));
  return item ? configFromItem(item) : item;
}

export async function getTenant(tenantId: string): Promise<StoredTenant | null> {
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: keys.tenant(tenantId), ConsistentRead: true }));
  return out.Item ? tenantFromItem(out.Item) : null;
}

export async function listTenants(page: PageRequest): Promise<StoredTenant[]> {
  const items = await queryPage({ index: 'GSI1', pk: TENANT_DIRECTORY_PK, ascending: true }, page);
  return items.map(tenantFromItem);
}

interface StoredConfig extends TenantConfig {
  version: number;
}

export function configFromItem(item: Record<string, unknown>): StoredConfig {
  const { PK: _pk, SK: _sk, entity: _entity, ...rest } = item;
  const config = rest as unknown as StoredConfig;
  // Levels stored before they could name integrations read as naming none.
  const levels = config.escalation_policy?.levels;
  if (levels?.some((l) => !l.integration_ids)) {
    config.escalation_policy = {
      ...config.escalation_policy,
      levels: levels.map((l) => ({ ...l, integration_ids: l.integration_ids ?? [] })),
    };
  }
  return config;
}

export function publicConfig({ version: _v, ...config }: StoredConfig): TenantConfig {
  return config;
}

export async function getTenantConfig(tenantId: string): Promise<StoredConfig | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: keys.tenantConfig(tenantId), ConsistentRead: true }),
  );
  return out.Item ? configFromItem(out.Item) : null;
}

export function putNewTenantConfig(c: TenantConfig): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: { ...keys.tenantConfig(c.tenant_id), entity: 'TENANT_CONFIG', ...c, version: 1 },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

export function putTenantConfigVersion(c: TenantConfig, expectedVersion: number): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: { ...keys.tenantConfig(c.tenant_id), entity: 'TENANT_CONFIG', ...c, version: expectedVersion + 1 },
      ConditionExpression: 'attribute_exists(PK) AND version = :v',
      ExpressionAttributeValues: { ':v': expectedVersion },
    },
  };
}
