/**
 * One message of the `webhook-deliveries` queue (worker `webhook-deliver`): one attempt of its
 * delivery (../webhook-deliver.ts). A delivery to try again later throws `RetryAfter` with its
 * retry delay: the queue hides the message that long and gives it back then, so no function
 * waits. Anything else thrown is our own fault (the table throttling), not the receiver's answer
 * (that is recorded), and the message returns after a backoff.
 */
import { RetryAfter } from '../../adapters/queue-retry.js';
import { log } from '../../log.js';
import { asTenant } from '../../tenant-scope.js';
import { attemptDelivery, type DeliverOptions } from './delivery-attempt.js';
import type { DeliveryJob } from './dispatch.js';

export async function deliverMessage(body: string, options: DeliverOptions = {}): Promise<void> {
  const job = JSON.parse(body) as DeliveryJob;
  // As the delivery's tenant (docs/architecture.md, 27); a job without one reaches no tenant's data.
  const outcome =
    typeof job.tenant_id === 'string'
      ? await asTenant(job.tenant_id, () => attemptDelivery(job, options))
      : await attemptDelivery(job, options);
  // One line per attempt, with the message's correlation id (the worker's context, shared/log.ts).
  log.info('webhook delivery attempt', {
    tenant_id: job.tenant_id,
    webhook_id: job.webhook_id,
    delivery_id: job.delivery_id,
    outcome: outcome.kind,
    ...(outcome.kind === 'retry' ? { retry_in_s: outcome.delaySeconds } : {}),
    ...('reason' in outcome ? { reason: outcome.reason } : {}),
  });
  if (outcome.kind === 'retry') throw new RetryAfter(outcome.delaySeconds);
}
