/**
 * Worker `publish-events` (shared/workers.ts): the table's stream in, the event bus out
 * (shared/domain/events/publish-stored.ts); records the bus still refuses are batch item failures.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { projectEventBus, type EventBus } from '../../shared/adapters/event-bus.js';
import { publishStoredItems } from '../../shared/domain/events/publish-stored.js';
import type { PublishOptions } from '../../shared/domain/events/publish.js';
import { triggerOf } from '../../shared/workers.js';
import { streamBatch, withHeartbeat } from '../../shared/worker-handler.js';

const trigger = triggerOf('publish-events', 'table-stream');

export const publishStreamRecords = (records: readonly DynamoDBRecord[], bus: EventBus, options: PublishOptions = {}) =>
  // No tenant's data read or written (the bus only): the batch's records at once, not a tenant at a time.
  streamBatch(records, (items) => publishStoredItems(items, bus, options), trigger, 'all');

export const handler = withHeartbeat('publish-events', (event: { Records: DynamoDBRecord[] }) =>
  publishStreamRecords(event.Records, projectEventBus()),
);
