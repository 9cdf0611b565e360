/**
 * Worker `export-lake` (shared/workers.ts): reads the `data-lake` queue, which a rule on the
 * service's bus feeds with every stored event and incident change, and writes them to the data
 * lake as Parquet (shared/domain/data-lake/export.ts, docs/data-lake.md). Not a third reader of
 * the table's stream: DynamoDB Streams serves two per shard, and both are taken.
 *
 * A message whose file could not be written is reported alone and comes back after a backoff; a
 * batch exported again writes the same files (their keys hash the rows' ids).
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { lakeCatalog } from '../../shared/adapters/lake/catalog.js';
import { parquetOf } from '../../shared/adapters/lake/parquet.js';
import { retryLater } from '../../shared/adapters/queue-retry.js';
import { putObject } from '../../shared/adapters/s3.js';
import { exportToLake, type LakeExportItem } from '../../shared/domain/data-lake/export.js';
import { log } from '../../shared/log.js';
import { withHeartbeat } from '../../shared/worker-handler.js';

interface Envelope {
  source?: unknown;
  'detail-type'?: unknown;
  detail?: unknown;
}

export const handler = withHeartbeat('export-lake', async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const items: LakeExportItem<SQSRecord>[] = [];
  for (const record of event.Records) {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(record.body) as Envelope;
    } catch (err) {
      // Not JSON: no retry makes it so. Logged, and left to go.
      log.error('a data-lake queue message is not an EventBridge event: not exported', { sqs_message_id: record.messageId, err });
      continue;
    }
    const { source, 'detail-type': detailType, detail } = envelope;
    if (typeof source !== 'string' || typeof detailType !== 'string' || typeof detail !== 'object' || detail === null) {
      log.warn('a data-lake queue message without source, detail-type or detail: not exported', { sqs_message_id: record.messageId });
      continue;
    }
    items.push({ id: record, message: { source, detailType, detail: detail as Record<string, unknown> } });
  }
  const catalog = lakeCatalog();
  const result = await exportToLake(items, {
    putFile: (key, bytes) => putObject(key, bytes, 'application/vnd.apache.parquet'),
    encode: parquetOf,
    ensureCatalog: (tenantId) => catalog.ensureTenant(tenantId),
  });
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const { id: record, error } of result.failed) {
    log.error('exporting a message to the data lake failed; it is tried again after a backoff', { sqs_message_id: record.messageId, err: error });
    await retryLater('data-lake', record, failures);
  }
  log.info('exported to the data lake', { messages: event.Records.length, files: result.files.length, rows: result.files.reduce((n, f) => n + f.rows, 0), failed: failures.length });
  return { batchItemFailures: failures };
});
