/**
 * Raising a watchlist alert once (docs/watchlist.md): a guard item named by the watchlist entry,
 * the trigger and its bucket (the touching event, or the hour of a position or a score), written
 * with attribute_not_exists in the same transaction as the outbox message that carries the alert's
 * event to the bus. A retried stream batch or a second score in the hour finds the guard and
 * writes nothing. Guards expire after GUARD_DAYS.
 */
import { WATCH_ALERT_FOUND, WATCHLIST_SOURCE } from '../vocabulary/bus.js';
import type { TenantId } from '../vocabulary/tenant.js';
import { TABLE } from './client.js';
import { tenantPk } from './keys.js';
import { outboxPut } from './outbox.js';
import { ConditionFailed, transactWrite } from './transact.js';

const GUARD_DAYS = 3;

/** The guard of one alert (docs/data-model.md, pattern 49). */
export const alertGuardKey = (tenantId: string, entryId: string, trigger: string, bucket: string) => ({
  PK: `${tenantPk(tenantId)}#WATCHALERTS`,
  SK: `${entryId}#${trigger}#${bucket}`,
});

/** Writes the guard and the message; false when the guard was there (raised before). */
export async function announceAlertOnce(tenantId: TenantId, guard: { entryId: string; trigger: string; bucket: string }, event: Record<string, unknown>, nowMs = Date.now()): Promise<boolean> {
  try {
    await transactWrite([
      {
        Put: {
          TableName: TABLE,
          Item: {
            ...alertGuardKey(tenantId, guard.entryId, guard.trigger, guard.bucket),
            entity: 'WATCHALERTGUARD',
            event_id: event.event_id,
            expires_at: Math.floor(nowMs / 1000) + GUARD_DAYS * 86400,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      outboxPut({ tenantId, source: WATCHLIST_SOURCE, detailType: WATCH_ALERT_FOUND, detail: { event } }),
    ]);
    return true;
  } catch (err) {
    if (err instanceof ConditionFailed) return false;
    throw err;
  }
}
