/**
 * A kind of item a tenant may have a limited number of (webhook subscriptions, integrations): in
 * the tenant's partition under a prefix, with a count item that the creating and deleting
 * transactions move, so the limit holds under concurrent creates, and a list that is one
 * consistent Query of the prefix (never more than the limit).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TenantId } from '../vocabulary/tenant.js';
import { db, TABLE } from './client.js';
import { putNew, versionedDelete } from './items.js';
import { queryPage, type PageRequest } from './query.js';
import type { TransactItem } from './transact.js';

type Key = { PK: string; SK: string };

export interface CountedKind {
  /** `entity` of its items. */
  entity: string;
  /** Its sort-key prefix in the tenant's partition, e.g. `WEBHOOK#`. */
  prefix: string;
  item: (tenantId: string, id: string) => Key;
  count: (tenantId: string) => Key;
  /** Items per tenant. */
  limit: number;
}

/** The item and the count's step; the count's condition is item 1 of the transaction. */
export function putNewCounted(
  kind: CountedKind,
  tenantId: TenantId,
  id: string,
  fields: Record<string, unknown>,
): TransactItem[] {
  return putNewCountedMany(kind, tenantId, [{ id, fields }]);
}

/**
 * Several new items and one step of the count for all of them (a transaction may touch the count
 * item once); the count's condition is the item after the last new one.
 */
export function putNewCountedMany(
  kind: CountedKind,
  tenantId: TenantId,
  items: readonly { id: string; fields: Record<string, unknown> }[],
): TransactItem[] {
  return [
    ...items.map(({ id, fields }) =>
      putNew({ ...kind.item(tenantId, id), entity: kind.entity, ...fields, version: 1 }),
    ),
    {
      Update: {
        TableName: TABLE,
        Key: kind.count(tenantId),
        UpdateExpression: 'ADD #count :n',
        ConditionExpression: 'attribute_not_exists(#count) OR #count <= :room',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':n': items.length, ':room': kind.limit - items.length },
      },
    },
  ];
}

export async function getCounted(
  kind: CountedKind,
  tenantId: TenantId,
  id: string,
): Promise<Record<string, unknown> | null> {
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: kind.item(tenantId, id), ConsistentRead: true }));
  return out.Item ?? null;
}

/** A page of them, oldest first (ids are UUIDv7), and how many there are. */
export async function listCounted(
  kind: CountedKind,
  tenantId: TenantId,
  page: PageRequest,
): Promise<{ items: Record<string, unknown>[]; total: number }> {
  const { PK } = kind.item(tenantId, '');
  const all = await queryPage({ pk: PK, skPrefix: kind.prefix, consistent: true }, { limit: kind.limit, offset: 0 });
  return { items: all.slice(page.offset, page.offset + page.limit), total: all.length };
}

export function deleteCounted(kind: CountedKind, tenantId: TenantId, id: string, version: number): TransactItem[] {
  return [
    versionedDelete(kind.item(tenantId, id), version),
    {
      Update: {
        TableName: TABLE,
        Key: kind.count(tenantId),
        UpdateExpression: 'ADD #count :minus',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':minus': -1 },
      },
    },
  ];
}
