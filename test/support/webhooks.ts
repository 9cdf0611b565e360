/**
 * Webhook deliveries happen in the background (the bus, the dispatch queue, the deliverer): a test
 * that snapshots a tenant's items waits for them to settle first.
 */
import { listDeliveries } from '../../shared/db/webhooks/deliveries.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';
import { pipelineDeadline } from './pipeline.js';

/**
 * Waits until the subscription's deliveries are none pending and `settleMs` passed without a new one
 * (PIPELINE_WAIT_MS at most): a delivery is made shortly after the change it carries is published.
 */
export async function deliveriesSettled(tenantId: string, webhookId: string, settleMs = 500): Promise<void> {
  const deadline = pipelineDeadline();
  let last = '';
  let stableSince = Date.now();
  for (;;) {
    const items = await listDeliveries(systemTenant(tenantId), webhookId, { limit: 200, offset: 0 });
    const state = JSON.stringify(items.map((d) => [d.delivery_id, d.status, d.attempts.length]));
    if (state !== last) {
      last = state;
      stableSince = Date.now();
    }
    if (items.every((d) => d.status !== 'pending') && Date.now() - stableSince >= settleMs) return;
    if (Date.now() > deadline) throw new Error(`deliveries of webhook ${webhookId} did not settle: ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
