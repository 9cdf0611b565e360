/**
 * Raising a watchlist alert once (docs/watchlist.md): a guard item named by the watchlist entry,
 * the trigger and its bucket (the touching event, or the hour of a position or a score), written
 * in the same transaction as the outbox message that carries the alert's event to the bus
 * (shared/db/announce-once.ts). A retried stream batch or a second score in the hour finds the
 * guard and writes nothing. Guards expire after GUARD_DAYS.
 */
import { WATCH_ALERT_FOUND, WATCHLIST_SOURCE } from '../../vocabulary/bus.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { announceOnce } from '../announce-once.js';
import { tenantPk } from '../keys.js';

const GUARD_DAYS = 3;

/** The guard of one alert (docs/data-model.md, pattern 49). */
export const alertGuardKey = (tenantId: string, entryId: string, trigger: string, bucket: string) => ({
  PK: `${tenantPk(tenantId)}#WATCHALERTS`,
  SK: `${entryId}#${trigger}#${bucket}`,
});

/** Writes the guard and the message; false when the guard was there (raised before). */
export function announceAlertOnce(
  tenantId: TenantId,
  guard: { entryId: string; trigger: string; bucket: string },
  event: Record<string, unknown>,
  nowMs = Date.now(),
): Promise<boolean> {
  return announceOnce(
    tenantId,
    {
      ...alertGuardKey(tenantId, guard.entryId, guard.trigger, guard.bucket),
      entity: 'WATCHALERTGUARD',
      guardDays: GUARD_DAYS,
    },
    { source: WATCHLIST_SOURCE, detailType: WATCH_ALERT_FOUND },
    event,
    nowMs,
  );
}
