/**
 * A tenant's public reporting key, stored as a hash twice: under the tenant (`PUBLIC_REPORT_KEY`,
 * to find the current one when it is replaced) and under the hash (`PUBLIC_REPORT_KEY_LOOKUP`,
 * to find the tenant of a report). The key itself is never stored.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import * as keys from './item-keys.js';
import type { TransactItem } from './transact.js';
import type { TenantId } from '../vocabulary/tenant.js';

/** The hash of the tenant's current key, if it has one. */
export async function currentPublicReportKeyHash(tenantId: TenantId): Promise<string | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: keys.publicReportKey(tenantId), ConsistentRead: true }),
  );
  return (out.Item?.key_hash as string | undefined) ?? null;
}

/** The tenant whose current key has this hash. */
export async function tenantOfPublicReportKeyHash(hash: string): Promise<string | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: keys.publicReportKeyLookup(hash), ConsistentRead: true }),
  );
  return (out.Item?.tenant_id as string | undefined) ?? null;
}

/** The writes that make `hash` the tenant's key and retire `oldHash`. */
export function replacePublicReportKey(
  tenantId: TenantId,
  hash: string,
  oldHash: string | null,
  at: string,
): TransactItem[] {
  const items: TransactItem[] = [
    {
      Put: {
        TableName: TABLE,
        Item: { ...keys.publicReportKey(tenantId), entity: 'PUBLIC_REPORT_KEY', key_hash: hash, created_at: at },
      },
    },
    {
      Put: {
        TableName: TABLE,
        Item: {
          ...keys.publicReportKeyLookup(hash),
          entity: 'PUBLIC_REPORT_KEY_LOOKUP',
          tenant_id: tenantId,
          created_at: at,
        },
      },
    },
  ];
  if (oldHash) items.push({ Delete: { TableName: TABLE, Key: keys.publicReportKeyLookup(oldHash) } });
  return items;
}
