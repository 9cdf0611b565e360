/**
 * Audit entries. Every mutation puts its entry in the same transaction as the change, so neither
 * exists without the other.
 */
import type { Actor } from '../vocabulary/actor.js';
import { newTimeId, now } from '../ids.js';
import { TABLE } from './client.js';
import { keys } from './keys.js';
import type { TransactItem } from './transact.js';

export interface AuditEntry {
  log_id: string;
  tenant_id: string;
  /** Dotted name such as `tenant.created`. */
  action: string;
  resource_type: string;
  resource_id: string;
  /** Null when the system acted (bootstrap) or the caller is anonymous. */
  user_id: string | null;
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
  return {
    log_id: newTimeId(),
    tenant_id: input.tenantId,
    action: input.action,
    resource_type: input.resourceType,
    resource_id: input.resourceId,
    user_id: actor.principal?.userId ?? null,
    timestamp: now(),
    request_id: actor.requestId,
    // An anonymous reporter's address is withheld: the entry says so instead.
    source_ip: actor.sourceIp ?? 'anonymous',
    changes: input.changes,
  };
}

/** The transaction item that writes an audit entry; it never overwrites one. */
export function auditPut(entry: AuditEntry): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: { ...keys.audit(entry.tenant_id, entry.log_id), entity: 'AUDIT', ...entry },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/** An item read back from the table, without its keys. */
export function auditFromItem(item: Record<string, unknown>): AuditEntry {
  const { PK: _pk, SK: _sk, entity: _entity, ...entry } = item;
  return entry as unknown as AuditEntry;
}
