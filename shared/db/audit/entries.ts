/**
 * Audit entries. Every mutation puts its entry in the same transaction as the change, so neither
 * exists without the other. Each entry is in its tenant's audit partition by its UUIDv7 id, and
 * in three indexes: by action, by resource type and by user (docs/data-model.md). A credential in
 * a URL of its changes is kept `REDACTED` (shared/url-secrets.ts), whatever the caller passed.
 */
import type { Actor } from '../../vocabulary/actor.js';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { newTimeId, timeIdBound, timeOfId } from '../../ids.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { db, TABLE } from '../client.js';
import { pick } from '../items.js';
import * as keys from '../item-keys.js';
import { forEachPage, queryCount, queryPage, type KeyQuery, type PageRequest } from '../query.js';
import { BEFORE_WRITE, WRITE_WITH, type TransactItem } from '../transact.js';
import { auditCountUpdates, auditTotal } from './counts.js';
import { redactSecretsIn } from '../../url-secrets.js';
import { AUDIT_FIELDS, checkAuditSeals, sealAuditItems, type SealCheck } from './seal.js';

export interface AuditEntry {
  log_id: string;
  tenant_id: string;
  /** Dotted name such as `tenant.created`. */
  action: string;
  resource_type: string;
  resource_id: string;
  /** Null when the system acted (bootstrap) or the caller is anonymous. */
  user_id: string | null;
  /** Who acted: a person with a token, a program with an API key, the service itself, or someone without a credential. */
  actor_type: 'user' | 'api_key' | 'system' | 'anonymous' | 'workflow';
  /** The API key used, when `actor_type` is `api_key`. */
  api_key_id: string | null;
  /** The agent tool whose call made the request (`X-Gatehouse-Tool`); absent otherwise, so older entries hash as they did. */
  tool?: string;
  timestamp: string;
  request_id: string;
  source_ip: string;
  /** What changed: field -> { from, to }, or the created fields. */
  changes?: Record<string, unknown>;
}

export interface AuditInput {
  tenantId: string;
  action: string;
  resourceType: string;
  resourceId: string;
  changes?: Record<string, unknown>;
}

export function auditEntry(actor: Actor, input: AuditInput): AuditEntry {
  const logId = newTimeId();
  return {
    log_id: logId,
    tenant_id: input.tenantId,
    action: input.action,
    resource_type: input.resourceType,
    resource_id: input.resourceId,
    user_id: actor.principal?.userId ?? null,
    actor_type: actor.kind,
    api_key_id: actor.principal?.apiKeyId ?? null,
    ...(actor.kind === 'user' || actor.kind === 'api_key' ? (actor.tool ? { tool: actor.tool } : {}) : {}),
    // The id's own millisecond: the time filters work on ids, so an entry's time must be its id's.
    timestamp: new Date(timeOfId(logId)).toISOString(),
    request_id: actor.requestId,
    // An anonymous reporter's address is withheld: the entry says so instead.
    source_ip: actor.sourceIp ?? 'anonymous',
    // A workflow's change names the workflow and the run that made it.
    changes: redactSecretsIn(
      actor.kind === 'workflow'
        ? { ...input.changes, workflow: { workflow_id: actor.workflowId, run_id: actor.runId } }
        : input.changes,
    ),
  };
}

/**
 * The transaction item that writes an audit entry; it never overwrites one. The entry is sealed
 * before its transaction is sent, together with the transaction's other entries (seal.ts).
 */
export function auditPut(entry: AuditEntry): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: { ...keys.audit(entry.tenant_id, entry.log_id), ...auditIndexKeys(entry), entity: 'AUDIT', ...entry },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
    [BEFORE_WRITE]: sealAuditPuts,
    [WRITE_WITH]: countAuditPuts,
  };
}

/** The transaction's audit entries counted: one update per tenant and day (counts.ts). */
function countAuditPuts(items: readonly TransactItem[]): TransactItem[] {
  return auditCountUpdates(
    items.flatMap((item) => (item[WRITE_WITH] === countAuditPuts && item.Put?.Item ? [item.Put.Item] : [])),
  );
}

/** Seals the transaction's audit entries not sealed yet (a retried transaction keeps its seals). */
async function sealAuditPuts(items: readonly TransactItem[]): Promise<void> {
  const unsealed = items.flatMap((item) =>
    item[BEFORE_WRITE] === sealAuditPuts && item.Put?.Item && !item.Put.Item.seal ? [item.Put.Item] : [],
  );
  if (unsealed.length > 0) await sealAuditItems(unsealed);
}

/** The index keys of an entry: by action (GSI1), by resource type (GSI2), by user (GSI3, when a user acted). */
export function auditIndexKeys(
  entry: Pick<AuditEntry, 'tenant_id' | 'log_id' | 'action' | 'resource_type' | 'user_id'>,
): Record<string, string> {
  return {
    ...keys.auditByAction(entry.tenant_id, entry.action, entry.log_id),
    ...keys.auditByResourceType(entry.tenant_id, entry.resource_type, entry.log_id),
    ...(entry.user_id ? keys.auditByUser(entry.tenant_id, entry.user_id, entry.log_id) : {}),
  };
}

/** An item read back from the table: the entry's own fields only (entries written before a field existed have it null). */
export function auditFromItem(item: Record<string, unknown>): AuditEntry {
  const entry = pick<AuditEntry>(item, AUDIT_FIELDS satisfies readonly (keyof AuditEntry)[]);
  // Entries written before `actor_type`: a user if one acted, else the system.
  if (entry.actor_type === null) entry.actor_type = entry.user_id ? 'user' : 'system';
  if (entry.changes === null) delete entry.changes;
  if (entry.tool === null) delete entry.tool;
  return entry;
}

export interface AuditFilter {
  action?: string;
  resourceType?: string;
  userId?: string;
  /** Both included (milliseconds). */
  fromMs?: number;
  toMs?: number;
}

/** The largest millisecond a UUIDv7 can carry. */
const END_OF_TIME = 2 ** 48 - 1;

/**
 * The query that serves a filter: an index keyed by its most selective field (action, then
 * resource type, then user), or the tenant's audit partition; the time range is the key range of
 * its UUIDv7 ids; the other fields filter what the range holds.
 */
function auditQuery(tenantId: TenantId, f: AuditFilter): KeyQuery {
  const range: [string, string] = [timeIdBound(f.fromMs ?? 0, 'low'), timeIdBound(f.toMs ?? END_OF_TIME, 'high')];
  const filter = { action: f.action, resource_type: f.resourceType, user_id: f.userId };
  if (f.action)
    return {
      index: 'GSI1',
      pk: keys.auditByAction(tenantId, f.action, '').GSI1PK,
      skBetween: range,
      ascending: false,
      filter: { ...filter, action: undefined },
    };
  if (f.resourceType) {
    return {
      index: 'GSI2',
      pk: keys.auditByResourceType(tenantId, f.resourceType, '').GSI2PK,
      skBetween: range,
      ascending: false,
      filter: { ...filter, resource_type: undefined },
    };
  }
  if (f.userId)
    return {
      index: 'GSI3',
      pk: keys.auditByUser(tenantId, f.userId, '').GSI3PK,
      skBetween: range,
      ascending: false,
      filter: { ...filter, user_id: undefined },
    };
  return { pk: keys.audit(tenantId, '').PK, skBetween: range, ascending: false };
}

/**
 * A page of the tenant's entries matching `filter`, newest first, and how many match in all: of a
 * time range alone, from the tenant's day counts (counts.ts), whatever it holds; with an action,
 * resource type or user, a COUNT Query of the index range (it reads the entries that match it).
 */
export async function queryAudit(
  tenantId: TenantId,
  filter: AuditFilter,
  page: PageRequest,
): Promise<{ items: AuditEntry[]; total: number }> {
  const q = auditQuery(tenantId, filter);
  const byRange = !filter.action && !filter.resourceType && !filter.userId;
  const [items, total] = await Promise.all([
    queryPage(q, page),
    byRange ? auditTotal(tenantId, filter.fromMs, filter.toMs ?? END_OF_TIME) : queryCount(q),
  ]);
  return { items: items.map(auditFromItem), total };
}

export async function getAuditEntry(tenantId: TenantId, logId: string): Promise<AuditEntry | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: keys.audit(tenantId, logId), ConsistentRead: true }),
  );
  return out.Item ? auditFromItem(out.Item) : null;
}

/**
 * One-off migration (bin/migrate-audit-index.ts): gives the tenant's entries written before the
 * audit indexes their index keys. Idempotent: entries that have them are not written.
 */
export async function reindexAuditOfTenant(tenantId: TenantId): Promise<number> {
  let changed = 0;
  await forEachPage(
    {
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk',
      FilterExpression: 'attribute_not_exists(GSI1PK)',
      ExpressionAttributeValues: { ':pk': keys.audit(tenantId, '').PK },
      ProjectionExpression: 'SK, #action, resource_type, user_id',
      ExpressionAttributeNames: { '#action': 'action' },
    },
    async (page) => {
      for (const item of page.Items ?? []) {
        const index = auditIndexKeys({
          tenant_id: tenantId,
          log_id: String(item.SK),
          action: String(item.action),
          resource_type: String(item.resource_type),
          user_id: (item.user_id as string | null | undefined) ?? null,
        });
        const names = Object.keys(index);
        await db.send(
          new UpdateCommand({
            TableName: TABLE,
            Key: keys.audit(tenantId, String(item.SK)),
            UpdateExpression: `SET ${names.map((_, i) => `#k${i} = :k${i}`).join(', ')}`,
            ConditionExpression: 'attribute_exists(PK)',
            ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#k${i}`, n])),
            ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:k${i}`, index[n]])),
          }),
        );
        changed++;
      }
    },
  );
  return changed;
}

/** The query of the tenant's entries from `fromMs` to `toMs` (both included), oldest first. */
const auditRange = (tenantId: TenantId, fromMs: number, toMs: number) => ({
  TableName: TABLE,
  KeyConditionExpression: 'PK = :pk AND SK BETWEEN :lo AND :hi',
  ExpressionAttributeValues: {
    ':pk': keys.audit(tenantId, '').PK,
    ':lo': timeIdBound(fromMs, 'low'),
    ':hi': timeIdBound(toMs, 'high'),
  },
  ConsistentRead: true,
});

/** The tenant's entries from `fromMs` to `toMs` (both included), oldest first, a page at a time. */
export async function eachAuditPage(
  tenantId: TenantId,
  fromMs: number,
  toMs: number,
  onPage: (entries: AuditEntry[]) => Promise<void> | void,
): Promise<void> {
  await forEachPage(auditRange(tenantId, fromMs, toMs), (page) => onPage((page.Items ?? []).map(auditFromItem)));
}

/**
 * The tenant's entries from `fromMs` to `toMs` (both included), oldest first, each with what its
 * seal says (seal.ts), and the ids the seals of batches name.
 */
export async function checkedAuditEntriesBetween(
  tenantId: TenantId,
  fromMs: number,
  toMs: number,
): Promise<{ entries: AuditEntry[]; seals: SealCheck[]; batchIds: Set<string> }> {
  const items: Record<string, unknown>[] = [];
  await forEachPage(auditRange(tenantId, fromMs, toMs), (page) => {
    items.push(...(page.Items ?? []));
  });
  const { checks, batchIds } = await checkAuditSeals(items);
  return { entries: items.map(auditFromItem), seals: checks, batchIds };
}

/** Every entry of the tenant from `fromMs` to `toMs` (both included), oldest first: what a digest covers. */
export async function auditEntriesBetween(tenantId: TenantId, fromMs: number, toMs: number): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  await eachAuditPage(tenantId, fromMs, toMs, (page) => {
    entries.push(...page);
  });
  return entries;
}

/** The tenant's oldest entry, if any: where its chain of digests starts. */
export async function firstAuditEntry(tenantId: TenantId): Promise<AuditEntry | null> {
  const [item] = await queryPage(
    { pk: keys.audit(tenantId, '').PK, ascending: true, consistent: true },
    { limit: 1, offset: 0 },
  );
  return item ? auditFromItem(item) : null;
}
