/**
 * Worker `vessel-announcer` (shared/workers.ts): reads the `vessel-episodes` queue, fed by a rule
 * on the bus with the vessel tracker's `vessel.episode_found` messages, the watchlist's
 * `watchlist.alert_found` ones and the connectors' `hazard.alert_found` ones, and ingests the event each carries
 * (shared/domain/vessels/announce.ts). Idempotent; a message that fails comes back, and
 * after five receipts waits in the dead letters.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { busMessageOf, type BusEnvelope } from '../../shared/domain/webhooks/delivery-policy.js';
import { announceEvent } from '../../shared/domain/vessels/announce.js';
import type { EventInput } from '../../shared/domain/events/ingest.js';
import { log } from '../../shared/log.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';
import { withHeartbeat } from '../../shared/worker-handler.js';

export const handler = withHeartbeat('vessel-announcer', async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    let message;
    try {
      message = busMessageOf(JSON.parse(record.body) as BusEnvelope);
    } catch (err) {
      log.error('an announcement message is not JSON: dropped', { sqs_message_id: record.messageId, err });
      continue;
    }
    const announced = message?.detail.event as EventInput | undefined;
    if (!message || !announced || typeof announced !== 'object') {
      log.warn('an announcement message without a tenant or an event: dropped', { sqs_message_id: record.messageId });
      continue;
    }
    try {
      // The message's own tenant: the tracker's, written with the episode.
      await announceEvent(systemTenant(message.tenantId), announced);
    } catch (err) {
      log.warn('an announcement is tried again', { sqs_message_id: record.messageId, err });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
});
