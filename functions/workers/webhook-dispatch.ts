/**
 * Worker `webhook-dispatch` (shared/workers.ts): reads the `webhook-dispatch` queue, which a rule
 * on the service's bus feeds with every subscribable message, and makes one delivery per matching
 * subscription (shared/domain/webhooks/dispatch.ts). The subscriptions of a tenant are read once
 * per batch. A message that fails is reported alone and comes back after a backoff (2, 4, 8, 16 s);
 * after 5 receives it is in the dead-letter queue.
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { retryLater } from '../../shared/adapters/queue-retry.js';
import { dispatchMessage, subscriptionsOf } from '../../shared/domain/webhooks/dispatch.js';
import { busMessageOf, type BusEnvelope, type BusMessage } from '../../shared/domain/webhooks/delivery-policy.js';
import { now } from '../../shared/ids.js';
import { log } from '../../shared/log.js';
import { withHeartbeat } from '../../shared/worker-handler.js';

export const handler = withHeartbeat('webhook-dispatch', async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  const fail = (record: SQSRecord, err: unknown) => {
    log.error('dispatching a message to webhooks failed; it is tried again after a backoff', { sqs_message_id: record.messageId, err });
    return retryLater('webhook-dispatch', record, failures);
  };
  const byTenant = new Map<string, { record: SQSRecord; message: BusMessage }[]>();
  for (const record of event.Records) {
    let message: BusMessage | null;
    try {
      message = busMessageOf(JSON.parse(record.body) as BusEnvelope);
    } catch (err) {
      // Not JSON: no retry makes it so. Logged, and left to go.
      log.error('a dispatch queue message is not an EventBridge event: not delivered to webhooks', { sqs_message_id: record.messageId, err });
      continue;
    }
    if (!message) {
      log.warn('a bus message without a tenant or an id: not delivered to webhooks', { sqs_message_id: record.messageId });
      continue;
    }
    byTenant.set(message.tenantId, [...(byTenant.get(message.tenantId) ?? []), { record, message }]);
  }
  const at = now();
  await Promise.all(
    [...byTenant].map(async ([tenantId, items]) => {
      let subscriptions;
      try {
        subscriptions = await subscriptionsOf(tenantId);
      } catch (err) {
        await Promise.all(items.map(({ record }) => fail(record, err)));
        return;
      }
      await Promise.all(
        items.map(({ record, message }) => dispatchMessage(message, at, subscriptions).catch((err: unknown) => fail(record, err))),
      );
    }),
  );
  return { batchItemFailures: failures };
});
