/**
 * A batch of the `webhook-dispatch` queue (worker `webhook-dispatch`), which a rule on the
 * service's bus feeds with every subscribable message: one delivery per matching subscription of
 * each message (../webhook-dispatch.ts), the subscriptions of a tenant read once per batch. A
 * message that is not JSON, or has no tenant or id, is dropped (no retry makes it one); the
 * messages that failed are answered with why, to be tried again.
 */
import type { QueueMessage } from '../../vocabulary/queues.js';
import { now } from '../../ids.js';
import { withLogContext } from '../../log.js';
import { asTenant } from '../../tenant-scope.js';
import { queuedBusMessage, type BusMessage } from './delivery-policy.js';
import { dispatchMessage, subscriptionsOf } from './dispatch.js';

export async function dispatchToWebhooks<K>(messages: readonly QueueMessage<K>[]): Promise<Map<K, unknown>> {
  const failed = new Map<K, unknown>();
  const byTenant = new Map<string, { key: K; message: BusMessage }[]>();
  for (const { key, id, body } of messages) {
    const message = queuedBusMessage(body, id, 'webhook dispatch');
    if (!message) continue;
    byTenant.set(message.tenantId, [...(byTenant.get(message.tenantId) ?? []), { key, message }]);
  }
  const at = now();
  await Promise.all(
    [...byTenant].map(([tenantId, items]) =>
      // As that tenant (docs/architecture.md, 27): its credentials reach its own data only.
      asTenant(tenantId, async () => {
        let subscriptions;
        try {
          subscriptions = await subscriptionsOf(tenantId);
        } catch (err) {
          for (const { key } of items) failed.set(key, err);
          return;
        }
        await Promise.all(
          items.map(({ key, message }) =>
            // Each message's lines carry its own correlation id (shared/log.ts).
            withLogContext({ correlation_id: message.correlationId }, () =>
              dispatchMessage(message, at, subscriptions),
            ).catch((err: unknown) => void failed.set(key, err)),
          ),
        );
      }),
    ),
  );
  return failed;
}
