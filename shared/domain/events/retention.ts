/**
 * Retention by plan (docs/plans.md): one message of the `plan-changes` queue (worker
 * `retention-restamp`), fed by a rule on the bus with the tenant's `tenant.plan_changed`: every
 * event of the tenant gets the TTL its retention now says, counted from the time in its id, as
 * ingest stamps it, and so does each of its mention index items (./mention-index.ts). The tenant's plan and configuration are read when the message is handled, not
 * taken from the message, so messages handled late or out of order, or twice, end the same.
 *
 * Reads hide what the plan no longer shows from the change on (shared/domain/events/read.ts);
 * this only moves when DynamoDB removes it. A TTL is stamped a day past the retention
 * (RETENTION_GRACE_DAYS): an upgrade re-stamps an event near its old end before TTL may take it.
 */
import { restampEventExpiry } from '../../db/events.js';
import { getTenant, getTenantConfig } from '../../db/tenants.js';
import { timeOfId } from '../../ids.js';
import { log } from '../../log.js';
import { asTenant } from '../../tenant-scope.js';
import { systemTenant, type TenantId } from '../../vocabulary/tenant.js';
import { eventExpiry, eventRetentionDays } from '../accounts/index.js';
import { queuedBusMessage } from '../webhooks/index.js';
import { restampMentions } from './mention-index.js';

/** Re-stamps the events of the tenant a plan-change message names; returns how many changed. */
export async function restampRetention(body: string, messageId: string): Promise<number> {
  const message = queuedBusMessage(body, messageId, 'plan-change');
  if (!message) return 0;
  // As the plan's tenant (docs/architecture.md, 27): its credentials reach its own data only.
  return asTenant(message.tenantId, () => restampTenant(systemTenant(message.tenantId)));
}

async function restampTenant(tenantId: TenantId): Promise<number> {
  const [tenant, config] = await Promise.all([getTenant(tenantId), getTenantConfig(tenantId)]);
  if (!tenant) return 0;
  const days = eventRetentionDays(tenant.plan, config?.retention_days.events ?? 90);
  // The mention index items of an event expire with it: given the event's new TTL.
  const changed = await restampEventExpiry(
    tenantId,
    (eventId) => eventExpiry(timeOfId(eventId), days),
    restampMentions,
  );
  log.info('events re-stamped for a plan change', { tenant_id: tenantId, plan: tenant.plan, days, changed });
  return changed;
}
