/**
 * Announcing an event the service raises itself exactly once (watchlist alerts, hazard alerts): a
 * guard item, written with attribute_not_exists in the same transaction as the outbox message that
 * carries the event to the bus (the `vessel-announcer` worker stores it). A retried batch or a
 * second poll finds the guard and writes nothing. Guards expire after `guardDays`.
 */
import { outboxPut } from './outbox.js';
import { TABLE } from './client.js';
import { ConditionFailed, transactWrite } from './transact.js';
import type { TenantId } from '../vocabulary/tenant.js';

export interface AnnounceGuard {
  PK: string;
  SK: string;
  /** The guard item's `entity`. */
  entity: string;
  guardDays: number;
  /** What else the guard keeps (a routing alert's guard is the alert's record: shared/db/internet-health.ts). */
  attributes?: Record<string, unknown>;
}

/** Writes the guard and the message; false when the guard was there (announced before). */
export async function announceOnce(
  tenantId: TenantId,
  guard: AnnounceGuard,
  message: { source: string; detailType: string },
  event: Record<string, unknown>,
  nowMs = Date.now(),
): Promise<boolean> {
  try {
    await transactWrite([
      {
        Put: {
          TableName: TABLE,
          Item: {
            ...guard.attributes,
            PK: guard.PK,
            SK: guard.SK,
            entity: guard.entity,
            event_id: event.event_id,
            expires_at: Math.floor(nowMs / 1000) + guard.guardDays * 86400,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      outboxPut({ tenantId, source: message.source, detailType: message.detailType, detail: { event } }),
    ]);
    return true;
  } catch (err) {
    if (err instanceof ConditionFailed) return false;
    throw err;
  }
}
