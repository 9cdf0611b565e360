/**
 * Worker `count-analytics` (shared/workers.ts): the table's stream in; the analytics counters, the
 * active threats, the vessels' tracks, the mention index and watchlist alerts out, each record
 * counted exactly once however often it comes (shared/domain/analytics/stored-changes.ts). Records
 * whose part failed are batch item failures, retried by the stream.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { countStoredChanges } from '../../shared/domain/analytics/stored-changes.js';
import { streamBatch, withHeartbeat } from '../../shared/worker-handler.js';

// The domain passes over what it does not count: no trigger filter here (the worker table is not in this bundle).
export const countStreamRecords = (records: readonly DynamoDBRecord[]) => streamBatch(records, countStoredChanges);

export const handler = withHeartbeat('count-analytics', (event: { Records: DynamoDBRecord[] }) =>
  countStreamRecords(event.Records),
);
