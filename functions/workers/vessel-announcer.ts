/**
 * Worker `vessel-announcer` (shared/workers.ts): reads the `vessel-episodes` queue and ingests the
 * event each message carries (shared/domain/vessels/announce-message.ts). Idempotent; a message
 * that fails comes back after the visibility timeout, and after five receipts waits in the dead letters.
 */
import { announceMessage } from '../../shared/domain/vessels/announce-message.js';
import { queueWorker } from '../../shared/worker-handler.js';

export const handler = queueWorker('vessel-announcer', {}, (record) => announceMessage(record.body, record.messageId));
