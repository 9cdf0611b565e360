/**
 * Worker `publish-events` (shared/workers.ts): the table's stream in, the event bus out. Each new
 * EVENT or OUTBOX item is published (shared/domain/events/publish.ts); records whose entries the
 * bus still refuses after the retries are reported as batch item failures, so Lambda retries
 * them and, after the mapping's retries, sends them to the dead-letter queue.
 */
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { projectEventBus, type EventBus } from '../../shared/adapters/event-bus.js';
import { publishItems, type ItemToPublish, type PublishOptions } from '../../shared/domain/events/publish.js';
import { log } from '../../shared/log.js';
import { passesStreamFilters, triggerOf } from '../../shared/workers.js';
import { withHeartbeat } from '../../shared/worker-handler.js';

const trigger = triggerOf('publish-events', 'table-stream');

/** Publishes the records' new images; the response names the records that failed. */
export async function publishStreamRecords(
  records: readonly DynamoDBRecord[],
  bus: EventBus,
  options: PublishOptions = {},
): Promise<DynamoDBBatchResponse> {
  const items: ItemToPublish[] = [];
  const broken: string[] = [];
  for (const record of records) {
    const id = record.dynamodb?.SequenceNumber;
    const image = record.dynamodb?.NewImage;
    // The event source mapping's filter lets only these through; anything else is not ours.
    if (!id || !image || !passesStreamFilters(trigger, record.eventName, image.entity?.S)) {
      continue;
    }
    try {
      // Lambda's AttributeValue (binary as base64 text) and the SDK's differ only in binary types,
      // which these items do not hold.
      items.push({ id, item: unmarshall(image as Record<string, AttributeValue>) });
    } catch (error) {
      log.error('stream record could not be read', { sequence_number: id, err: error });
      broken.push(id);
    }
  }

  const result = await publishItems(items, (entries) => bus.putEntries(entries), options);
  for (const failure of result.failed) {
    log.error('could not publish to the event bus', {
      bus: bus.name,
      sequence_number: failure.id,
      error_code: failure.errorCode,
      error_message: failure.errorMessage,
    });
  }
  log.info('published to the event bus', {
    bus: bus.name,
    records: records.length,
    published: result.published,
    failed: result.failed.length + broken.length,
    calls: result.calls,
  });
  const failedIds = new Set([...broken, ...result.failed.map((f) => f.id)]);
  // In record order: Lambda resumes the shard from the first failed record.
  return {
    batchItemFailures: records.flatMap((r) => {
      const id = r.dynamodb?.SequenceNumber;
      return id && failedIds.has(id) ? [{ itemIdentifier: id }] : [];
    }),
  };
}

export const handler = withHeartbeat('publish-events', async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> =>
  publishStreamRecords(event.Records, projectEventBus()));
