/**
 * How an `incident.notification` went to each of its targets (the roles, each integration, each
 * email recipient): one marker per (notification, target) in the incident's partition,
 * `NOTIFIED#<message id>#<target>`, beside the acknowledgement tokens it was sent with.
 *
 * - `sending`: claimed by a run, its link minted (written with the token's hash, in one transaction);
 * - `sent`: the target took it; a retried bus event sends it nothing more;
 * - `failed`: it did not; a retry claims it again, with a new link.
 *
 * A claim older than the lease belongs to a run that died (the worker's timeout is shorter) and may
 * be taken over. Markers expire (TTL) after 14 days, longer than any retry of their bus event.
 */
import { TABLE } from './client.js';
import { integrationsFrom, type StoredIntegration } from './integrations.js';
import * as keys from './item-keys.js';
import { readItems } from './read-batch.js';
import { writeAll } from './events.js';
import type { TransactItem } from './transact.js';
import type { TenantId } from '../vocabulary/tenant.js';

const KEEP_SECONDS = 14 * 86_400;

export type DeliveryStatus = 'sending' | 'sent' | 'failed';

export interface DeliveryMarker {
  target: string;
  status: DeliveryStatus;
  /** When a run claimed it (`sending`), or settled it. */
  at: string;
}

export interface DeliveryState {
  /** The markers found, by target; targets never tried are absent. */
  markers: Map<string, DeliveryMarker>;
  /** Those of the named integrations that exist, by id. */
  integrations: Map<string, StoredIntegration>;
}

/** The markers of `targets` and the integrations named, in one round trip (BatchGetItem). */
export async function readDeliveryState(
  tenantId: TenantId,
  incidentId: string,
  messageId: string,
  targets: readonly string[],
  integrationIds: readonly string[],
): Promise<DeliveryState> {
  const markerKey = (target: string) => keys.notificationDelivery(tenantId, incidentId, messageId, target);
  const read = await readItems([
    ...targets.map(markerKey),
    ...integrationIds.map((id) => keys.integration(tenantId, id)),
  ]);
  const markers = new Map<string, DeliveryMarker>();
  for (const target of targets) {
    const item = read.get(markerKey(target));
    if (item) markers.set(target, { target, status: item.status as DeliveryStatus, at: String(item.at) });
  }
  return { markers, integrations: integrationsFrom(read, tenantId, integrationIds) };
}

const marker = (
  tenantId: TenantId,
  incidentId: string,
  messageId: string,
  target: string,
  status: DeliveryStatus,
  at: string,
  extra: Record<string, unknown> = {},
) => ({
  ...keys.notificationDelivery(tenantId, incidentId, messageId, target),
  entity: 'NOTIFICATION_DELIVERY',
  target,
  status,
  at,
  ...extra,
  expires_at: Math.floor(Date.parse(at) / 1000) + KEEP_SECONDS,
});

/**
 * Claims a target for this run: fails (the transaction's condition) when it was sent, or another
 * run claimed it after `staleBefore` and is still at it.
 */
export function claimDelivery(
  tenantId: TenantId,
  incidentId: string,
  messageId: string,
  target: string,
  at: string,
  staleBefore: string,
): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: marker(tenantId, incidentId, messageId, target, 'sending', at),
      ConditionExpression: 'attribute_not_exists(PK) OR #status = :failed OR (#status = :sending AND #at < :stale)',
      ExpressionAttributeNames: { '#status': 'status', '#at': 'at' },
      ExpressionAttributeValues: { ':failed': 'failed', ':sending': 'sending', ':stale': staleBefore },
    },
  };
}

export interface DeliveryOutcome {
  target: string;
  status: 'sent' | 'failed';
  /** Why it failed: the receiver's status or the error (never the address, a credential). */
  reason?: string;
}

/**
 * Records how each claimed target went: one BatchWriteItem per 25 targets (usually one). The
 * outcomes are independent of each other, so no transaction (half the write units).
 */
export async function settleDeliveries(
  tenantId: TenantId,
  incidentId: string,
  messageId: string,
  outcomes: readonly DeliveryOutcome[],
  at: string,
): Promise<void> {
  await writeAll(
    outcomes.map((o) =>
      marker(tenantId, incidentId, messageId, o.target, o.status, at, o.reason ? { reason: o.reason } : {}),
    ),
  );
}
