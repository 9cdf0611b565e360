/**
 * Webhook deliveries of one status (`GET /webhooks/{id}/deliveries?status=`, and the replay of
 * the failed ones since a time) read the status index: the same calls and items whether the
 * subscription has 3 other deliveries or 300. Deliveries written before the index get its keys
 * from bin/migrate-delivery-index.ts, once.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  deliveriesSince,
  listDeliveries,
  putNewDelivery,
  reindexDeliveriesOfWebhook,
  type Delivery,
  type DeliveryStatus,
} from '../../shared/db/webhooks/index.js';
import { TABLE } from '../../shared/db/client.js';
import { transactWrite } from '../../shared/db/transact.js';
import { newTimeId } from '../../shared/ids.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';
import { countReads } from '../support/db-reads.js';

const tenantId = systemTenant(randomUUID());

function delivery(webhookId: string, status: DeliveryStatus): Delivery {
  const at = new Date().toISOString();
  return {
    delivery_id: newTimeId(),
    webhook_id: webhookId,
    tenant_id: tenantId,
    event_type: 'incident.created',
    message_id: randomUUID(),
    payload: '{}',
    status,
    attempts: [],
    next_attempt_at: null,
    failure_reason: status === 'failed' ? 'exhausted' : null,
    created_at: at,
    updated_at: at,
  };
}

async function store(items: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25)
    await transactWrite(items.slice(i, i + 25).map((Item) => ({ Put: { TableName: TABLE, Item } })));
}

/** A subscription with 5 failed deliveries, written first, and `delivered` delivered ones after them. */
async function subscriptionWith(delivered: number, keep = (i: Record<string, unknown>) => i) {
  const webhookId = randomUUID();
  const failed = Array.from({ length: 5 }, () => delivery(webhookId, 'failed'));
  const others = Array.from({ length: delivered }, () => delivery(webhookId, 'delivered'));
  await store([...failed, ...others].map((d) => keep(putNewDelivery(d).Put!.Item!)));
  return { webhookId, failed };
}

async function failedReads(webhookId: string) {
  const page = await countReads(() => listDeliveries(tenantId, webhookId, { limit: 21, offset: 0 }, 'failed'));
  const since = await countReads(() => deliveriesSince(tenantId, webhookId, Date.now() - 3_600_000, 'failed', 1001));
  return { page, since };
}

describe('webhook deliveries of one status', () => {
  it('cost the same calls and items however many deliveries of other statuses the subscription has', async () => {
    const small = await subscriptionWith(3);
    const large = await subscriptionWith(300);
    const [a, b] = [await failedReads(small.webhookId), await failedReads(large.webhookId)];

    for (const [sub, reads] of [
      [small, a],
      [large, b],
    ] as const) {
      const ids = sub.failed.map((d) => d.delivery_id);
      expect(reads.page.result.map((d) => d.delivery_id)).toEqual([...ids].reverse());
      expect(reads.since.result.map((d) => d.delivery_id)).toEqual(ids);
    }
    expect(b.page.tally).toEqual(a.page.tally);
    expect(b.since.tally).toEqual(a.since.tally);
    expect(b.page.tally).toMatchObject({ calls: 1, items: 5 });
  });

  it('finds deliveries written before the index once migrated, and a second run changes nothing', async () => {
    const { webhookId, failed } = await subscriptionWith(4, ({ GSI1PK: _pk, GSI1SK: _sk, ...item }) => item);
    expect(await listDeliveries(tenantId, webhookId, { limit: 10, offset: 0 }, 'failed')).toEqual([]);

    expect(await reindexDeliveriesOfWebhook(tenantId, webhookId)).toBe(9);
    const found = await listDeliveries(tenantId, webhookId, { limit: 10, offset: 0 }, 'failed');
    expect(found.map((d) => d.delivery_id)).toEqual(failed.map((d) => d.delivery_id).reverse());
    expect(await listDeliveries(tenantId, webhookId, { limit: 10, offset: 0 }, 'delivered')).toHaveLength(4);
    expect(await reindexDeliveriesOfWebhook(tenantId, webhookId)).toBe(0);
  });
});
