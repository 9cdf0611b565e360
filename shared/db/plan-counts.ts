/**
 * A tenant's count of a kind its plan limits (sensors): one item, moved by the same transaction
 * that creates or deletes one, its condition the plan's limit, so parallel creates cannot pass it.
 *
 * A tenant that had some before the count existed has no count yet: a create's condition fails
 * on a count not `seeded`, and the creator counts what there is (one Query), seeds the item and
 * tries again (`seedPlanCount`). A delete before that moves an unseeded item, which the seed
 * overwrites (the Query already misses what was deleted).
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { CountedLimit } from '../vocabulary/plans.js';
import type { TenantId } from '../vocabulary/tenant.js';
import { db, TABLE } from './client.js';
import * as keys from './item-keys.js';
import { tenantPk } from './keys.js';
import { queryCount } from './query.js';
import type { ItemKey, Prefetched } from './read-batch.js';
import type { TransactItem } from './transact.js';

export const planCountKey = (tenantId: TenantId, limit: CountedLimit): ItemKey => keys.planCount(tenantId, limit);

/** The count: a number once seeded, null before, undefined when it was not read. */
export type PlanCount = number | null | undefined;

function countOf(item: Record<string, unknown> | null | undefined): PlanCount {
  if (item === undefined) return undefined;
  return item?.seeded ? Number(item.count ?? 0) : null;
}

/** The count among items read in one batch. */
export function planCountFrom(read: Prefetched, tenantId: TenantId, limit: CountedLimit): PlanCount {
  return countOf(read.get(planCountKey(tenantId, limit)));
}

export async function getPlanCount(tenantId: TenantId, limit: CountedLimit): Promise<number | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: planCountKey(tenantId, limit), ConsistentRead: true }),
  );
  return countOf(out.Item ?? null) ?? null;
}

/** One more, if the count is seeded and below `allowed` (null: no limit, only seeded). */
export function takePlanCount(tenantId: TenantId, limit: CountedLimit, allowed: number | null): TransactItem {
  return {
    Update: {
      TableName: TABLE,
      Key: planCountKey(tenantId, limit),
      UpdateExpression: 'ADD #count :one',
      ConditionExpression:
        allowed === null ? 'attribute_exists(seeded)' : 'attribute_exists(seeded) AND #count < :allowed',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':one': 1, ...(allowed === null ? {} : { ':allowed': allowed }) },
    },
  };
}

/** One fewer. */
export function releasePlanCount(tenantId: TenantId, limit: CountedLimit): TransactItem {
  return {
    Update: {
      TableName: TABLE,
      Key: planCountKey(tenantId, limit),
      UpdateExpression: 'ADD #count :minus',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':minus': -1 },
    },
  };
}

/**
 * Seeds a tenant's count from its items under `prefix` in its partition, unless another request
 * seeded it first; returns the count as it then is.
 */
export async function seedPlanCount(tenantId: TenantId, limit: CountedLimit, prefix: string): Promise<number> {
  const count = await queryCount({ pk: tenantPk(tenantId), skPrefix: prefix, consistent: true });
  try {
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: { ...planCountKey(tenantId, limit), entity: 'PLAN_COUNT', count, seeded: true },
        ConditionExpression: 'attribute_not_exists(seeded)',
      }),
    );
    return count;
  } catch (err) {
    if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
    return (await getPlanCount(tenantId, limit)) ?? count;
  }
}
