/**
 * Worker `export-lake` (shared/workers.ts): reads the `data-lake` queue, which a rule on the
 * service's bus feeds with every stored event and incident change, and writes them to the data
 * lake as Parquet (shared/domain/data-lake/export-messages.ts). Not a third reader of the table's
 * stream: DynamoDB Streams serves two per shard, and both are taken. A message whose file could not
 * be written is reported alone and comes back after a backoff.
 */
import { backoffOn } from '../../shared/adapters/queue-retry.js';
import { exportMessagesToLake } from '../../shared/domain/data-lake/export-messages.js';
import { queueBatchWorker } from '../../shared/worker-handler.js';

export const handler = queueBatchWorker(
  'export-lake',
  { hide: backoffOn('data-lake'), parallel: true },
  exportMessagesToLake,
);
