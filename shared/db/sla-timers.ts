/**
 * SLA timers: one item per incident that waits for acknowledgement, keyed by the time the SLA
 * scheduler must look at it (`keys.slaTimer`). The incident's changes move its timer in their own
 * transaction; the scheduler reads what is due with one key-range query.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import * as keys from './item-keys.js';
import { SLA_TIMERS_PK } from './keys.js';
import { dueItems } from './timers.js';
import type { TransactItem } from './transact.js';
import type { TenantId } from '../vocabulary/tenant.js';

export interface SlaTimer {
  wake_at: string;
  tenant_id: TenantId;
  incident_id: string;
}

const keyOf = (t: SlaTimer) => keys.slaTimer(t.wake_at, t.tenant_id, t.incident_id);

/** Unconditional: writing the same timer twice is one timer. */
export function putSlaTimer(t: SlaTimer): TransactItem {
  return { Put: { TableName: TABLE, Item: { ...keyOf(t), entity: 'SLA_TIMER', ...t } } };
}

/** Unconditional: the scheduler may have removed a stale timer already. */
export function deleteSlaTimer(t: SlaTimer): TransactItem {
  return { Delete: { TableName: TABLE, Key: keyOf(t) } };
}

/** Removes a timer that no longer matches its incident (outside any incident change). */
export async function removeSlaTimer(t: SlaTimer): Promise<void> {
  await db.send(new DeleteCommand({ TableName: TABLE, Key: keyOf(t) }));
}

/** Up to `limit` timers due at or before `at`, earliest first, after `after` when given (the last of the previous page). */
export async function dueSlaTimers(at: string, limit: number, after?: SlaTimer): Promise<SlaTimer[]> {
  const items = await dueItems(SLA_TIMERS_PK, at, limit, after ? keyOf(after) : undefined);
  return items.map((i) => ({
    wake_at: i.wake_at as string,
    tenant_id: i.tenant_id as TenantId,
    incident_id: i.incident_id as string,
  }));
}
