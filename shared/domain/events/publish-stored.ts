/**
 * What worker `publish-events` does with a batch of the table's stream (functions/workers/
 * publish-events.ts): each new EVENT or OUTBOX item is published to the bus (publish.ts); the
 * items whose entries the bus still refuses after the retries are answered as failed, so their
 * records are retried by the stream and, after the mapping's retries, go to the dead-letter queue.
 */
import type { EventBus } from '../../adapters/event-bus.js';
import { log } from '../../log.js';
import { publishItems, type PublishOptions } from './publish.js';

/** Publishes the stored items; answers the ids of those that failed, with why. */
export async function publishStoredItems(
  items: readonly { id: string; item: Record<string, unknown> }[],
  bus: EventBus,
  options: PublishOptions = {},
): Promise<Map<string, string>> {
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
    records: items.length,
    published: result.published,
    failed: result.failed.length,
    calls: result.calls,
  });
  return new Map(result.failed.map((f) => [f.id, `${f.errorCode}: ${f.errorMessage}`]));
}
