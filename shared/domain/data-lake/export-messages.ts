/**
 * A batch of the `data-lake` queue (worker `export-lake`), which a rule on the service's bus feeds
 * with every stored event and incident change: written to the data lake as Parquet (export.ts,
 * docs/data-lake.md), one file per table, tenant and day, into the tenant's Glue catalog. A message
 * that is not an EventBridge event is dropped (no retry makes it one); those whose file could not
 * be written are answered with why, to come back after a backoff. A batch exported again writes the
 * same files (their keys hash the rows' ids).
 */
import { lakeCatalog } from '../../adapters/lake/catalog.js';
import { parquetOf } from '../../adapters/lake/parquet.js';
import { putObject } from '../../adapters/s3.js';
import { log } from '../../log.js';
import type { QueueMessage } from '../../vocabulary/queues.js';
import { exportToLake, type LakeExportItem } from './export.js';

interface Envelope {
  source?: unknown;
  'detail-type'?: unknown;
  detail?: unknown;
}

export async function exportMessagesToLake<K>(messages: readonly QueueMessage<K>[]): Promise<Map<K, unknown>> {
  const items: LakeExportItem<K>[] = [];
  for (const { key, id, body } of messages) {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(body) as Envelope;
    } catch (err) {
      log.error('a data-lake queue message is not an EventBridge event: not exported', { sqs_message_id: id, err });
      continue;
    }
    const { source, 'detail-type': detailType, detail } = envelope;
    if (typeof source !== 'string' || typeof detailType !== 'string' || typeof detail !== 'object' || detail === null) {
      log.warn('a data-lake queue message without source, detail-type or detail: not exported', { sqs_message_id: id });
      continue;
    }
    items.push({ id: key, message: { source, detailType, detail: detail as Record<string, unknown> } });
  }
  const catalog = lakeCatalog();
  const result = await exportToLake(items, {
    putFile: (key, bytes) => putObject(key, bytes, 'application/vnd.apache.parquet'),
    encode: parquetOf,
    ensureCatalog: (tenantId) => catalog.ensureTenant(tenantId),
  });
  log.info('exported to the data lake', {
    messages: messages.length,
    files: result.files.length,
    rows: result.files.reduce((n, f) => n + f.rows, 0),
    failed: result.failed.length,
  });
  return new Map(result.failed.map(({ id, error }) => [id, error]));
}
