/**
 * Reading webhook subscriptions and their delivery log: what the read routes need, apart from the
 * secret box, the outbound guard and the queues that changing or delivering them takes (so their
 * bundles stay small).
 */
import type { PageRequest } from '../../db/query.js';
import {
  listDeliveries,
  publicDelivery,
  type Delivery,
  type DeliveryStatus,
  getWebhook,
  listWebhooks as listStored,
  publicWebhook,
  type Webhook,
} from '../../db/webhooks/index.js';
import { NotFoundError } from '../../errors.js';
import type { TenantId } from '../../vocabulary/tenant.js';

export const WEBHOOK_NOT_FOUND = 'Webhook subscription not found';

export async function findWebhook(tenantId: TenantId, webhookId: string): Promise<Webhook> {
  const stored = await getWebhook(tenantId, webhookId);
  if (!stored) throw new NotFoundError(WEBHOOK_NOT_FOUND);
  return publicWebhook(stored);
}

export async function listWebhooks(
  tenantId: TenantId,
  page: PageRequest,
): Promise<{ items: Webhook[]; total: number; limit: number; offset: number }> {
  const { items, total } = await listStored(tenantId, page);
  return { items: items.map(publicWebhook), total, limit: page.limit, offset: page.offset };
}

export async function listWebhookDeliveries(
  tenantId: TenantId,
  webhookId: string,
  page: PageRequest,
  status?: DeliveryStatus,
): Promise<{ items: Delivery[]; limit: number; offset: number }> {
  const [webhook, items] = await Promise.all([
    getWebhook(tenantId, webhookId),
    listDeliveries(tenantId, webhookId, page, status),
  ]);
  if (!webhook) throw new NotFoundError(WEBHOOK_NOT_FOUND);
  return { items: items.map(publicDelivery), limit: page.limit, offset: page.offset };
}
