/**
 * Worker `count-analytics` (shared/workers.ts): the table's stream in, the analytics counters out
 * (shared/domain/analytics-counting.ts), each event and each incident change counted exactly
 * once however often a record comes. New EVENT items are counted; INCIDENT items, new or changed,
 * move their contribution. Records whose counters could not be written are reported as batch item
 * failures, so Lambda retries them and, after the mapping's retries, sends them to the dead-letter
 * queue; the records before them that were counted are not counted again on the retry.
 */
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { countEvents, countIncidents, type ItemToCount } from '../../shared/domain/analytics-counting.js';
import { log } from '../../shared/log.js';

/** Counts the records' new images; the response names the records that failed, in record order. */
export async function countStreamRecords(records: readonly DynamoDBRecord[]): Promise<DynamoDBBatchResponse> {
  const events: ItemToCount[] = [];
  const incidents: ItemToCount[] = [];
  const broken: string[] = [];
  for (const record of records) {
    const id = record.dynamodb?.SequenceNumber;
    const image = record.dynamodb?.NewImage;
    const entity = image?.entity?.S;
    if (!id || !image) continue;
    // The mapping's filter passes INSERTs and MODIFYs of both: an event counts when it is new only
    // (a MODIFY is it being marked processed or linked, which the counters do not follow).
    const wanted = (entity === 'EVENT' && record.eventName === 'INSERT') || (entity === 'INCIDENT' && (record.eventName === 'INSERT' || record.eventName === 'MODIFY'));
    if (!wanted) continue;
    try {
      // Lambda's AttributeValue (binary as base64 text) and the SDK's differ only in binary types,
      // which these items do not hold.
      const item = unmarshall(image as Record<string, AttributeValue>);
      (entity === 'EVENT' ? events : incidents).push({ id, item });
    } catch (error) {
      log.error('stream record could not be read', { sequence_number: id, err: error });
      broken.push(id);
    }
  }

  const [counted, moved] = await Promise.all([countEvents(events), countIncidents(incidents)]);
  for (const failure of [...counted.failed, ...moved.failed]) {
    log.error('could not count for analytics', { sequence_number: failure.id, reason: failure.reason });
  }
  log.info('counted for analytics', {
    records: records.length,
    events_counted: counted.counted,
    events_seen_before: counted.skipped,
    incidents_moved: moved.counted,
    incidents_seen_before: moved.skipped,
    failed: counted.failed.length + moved.failed.length + broken.length,
  });
  const failedIds = new Set([...broken, ...counted.failed.map((f) => f.id), ...moved.failed.map((f) => f.id)]);
  // In record order: Lambda resumes the shard from the first failed record.
  return {
    batchItemFailures: records.flatMap((r) => {
      const id = r.dynamodb?.SequenceNumber;
      return id && failedIds.has(id) ? [{ itemIdentifier: id }] : [];
    }),
  };
}

export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => countStreamRecords(event.Records);
