/**
 * Worker `webhook-dispatch` (shared/workers.ts): reads the `webhook-dispatch` queue, which a rule
 * on the service's bus feeds with every subscribable message, and makes one delivery per matching
 * subscription (shared/domain/webhook-dispatch.ts). A message that fails is reported alone and
 * comes back after the queue's visibility timeout; after 5 receives it is in the dead-letter queue.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { dispatchMessage } from '../../shared/domain/webhook-dispatch.js';
import { busMessageOf, type BusEnvelope } from '../../shared/domain/webhook-delivery.js';
import { now } from '../../shared/ids.js';
import { log } from '../../shared/log.js';

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      try {
        const message = busMessageOf(JSON.parse(record.body) as BusEnvelope);
        if (!message) {
          log.warn('a bus message without a tenant or an id: not delivered to webhooks', { sqs_message_id: record.messageId });
          return;
        }
        await dispatchMessage(message, now());
      } catch (err) {
        log.error('dispatching a message to webhooks failed; it returns after the visibility timeout', { sqs_message_id: record.messageId, err });
        failures.push({ itemIdentifier: record.messageId });
      }
    }),
  );
  return { batchItemFailures: failures };
};
