/**
 * Audit digests (docs/data-model.md, pattern 37b): per tenant and hour, the hashes of the hour's
 * entries, chained to the digest of the hour before, in `T#tid#AUDITDIGEST` by the hour's start;
 * `HEAD` says which hour the chain has reached. A digest and the head move in one transaction,
 * conditioned on the head as read, so two runs never write two chains.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { TenantId } from '../../vocabulary/tenant.js';
import { db, TABLE } from '../client.js';
import * as keys from '../item-keys.js';
import { forEachPage } from '../query.js';
import type { TransactItem } from '../transact.js';

export interface AuditDigest {
  tenant_id: string;
  /** The hour's start (ISO); its end is an hour later, excluded. */
  hour_start: string;
  entry_count: number;
  /** `[log_id, hash]` of each entry in id order; empty past MAX_LISTED_ENTRIES (the hour is then checked as a whole). */
  entries: [string, string][];
  /** SHA-256 over the entries' hashes in id order. */
  entries_hash: string;
  /** The digest hash of the hour before; null for a tenant's first digest. */
  previous_digest_hash: string | null;
  /** SHA-256 over this digest's fields above. */
  digest_hash: string;
  created_at: string;
}

export interface DigestHead {
  hour_start: string;
  digest_hash: string;
  version: number;
}

export async function getDigestHead(tenantId: TenantId): Promise<DigestHead | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: keys.auditDigestHead(tenantId), ConsistentRead: true }),
  );
  return (out.Item as DigestHead | undefined) ?? null;
}

/** The digest and the head moved to it; fails (item 1) when another run moved the head first. */
export function putDigest(d: AuditDigest, head: DigestHead | null): TransactItem[] {
  const headKey = keys.auditDigestHead(d.tenant_id);
  return [
    {
      Put: {
        TableName: TABLE,
        Item: { ...keys.auditDigest(d.tenant_id, d.hour_start), entity: 'AUDIT_DIGEST', ...d },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Put: {
        TableName: TABLE,
        Item: {
          ...headKey,
          entity: 'AUDIT_DIGEST_HEAD',
          hour_start: d.hour_start,
          digest_hash: d.digest_hash,
          version: (head?.version ?? 0) + 1,
        },
        ConditionExpression: head ? '#version = :version' : 'attribute_not_exists(PK)',
        ...(head
          ? {
              ExpressionAttributeNames: { '#version': 'version' },
              ExpressionAttributeValues: { ':version': head.version },
            }
          : {}),
      },
    },
  ];
}

/** The tenant's digests of hours starting from `from` up to `to` (ISO, both included), in order. */
export async function digestsBetween(tenantId: TenantId, from: string, to: string): Promise<AuditDigest[]> {
  const found: AuditDigest[] = [];
  await forEachPage(
    {
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': keys.auditDigestHead(tenantId).PK, ':from': from, ':to': to },
      ConsistentRead: true,
    },
    (page) => {
      found.push(...((page.Items ?? []) as AuditDigest[]));
    },
  );
  return found;
}

/** The digest of the hour before `hourStart`, if any (to check the chain at the range's start). */
export async function digestBefore(tenantId: TenantId, hourStart: string): Promise<AuditDigest | null> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND SK < :at',
      ExpressionAttributeValues: { ':pk': keys.auditDigestHead(tenantId).PK, ':at': hourStart },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  );
  return (out.Items?.[0] as AuditDigest | undefined) ?? null;
}
