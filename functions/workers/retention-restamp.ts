/**
 * Worker `retention-restamp` (shared/workers.ts): reads the `plan-changes` queue and gives the
 * tenant each message names the TTL of its plan's retention on every event
 * (shared/domain/events/retention.ts). Idempotent; a message that fails comes back after the
 * visibility timeout, and after five receipts waits in the dead letters.
 */
import { restampRetention } from '../../shared/domain/events/retention.js';
import { queueWorker } from '../../shared/worker-handler.js';

export const handler = queueWorker('retention-restamp', {}, (record) =>
  restampRetention(record.body, record.messageId),
);
