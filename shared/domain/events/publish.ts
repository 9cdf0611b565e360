/**
 * What goes out to the event bus, and how, without loss (docs/events.md):
 *
 * - an item of the table becomes one bus entry: a stored event (`entity = 'EVENT'`) is published
 *   as source `gatehouse.events`, detail-type = its type, detail = the event as the API shows
 *   it; an outbox message (`entity = 'OUTBOX'`) as its own source and detail-type, its detail
 *   with the tenant id and a stable `message_id`;
 * - entries go out at most 10 and 256 KB per PutEvents call;
 * - entries the bus refuses (a per-entry error code, or the whole call failing) are sent again
 *   with backoff; what still fails after the last try is returned, so the caller (the stream
 *   worker) reports exactly those records as failed and they are retried or dead-lettered.
 *
 * No Lambda or SDK types here: the bus is a port (`PutEntries`), the handler is glue.
 */
import { eventFromItem } from '../../db/events.js';
import { saneCorrelationId } from '../../log.js';
import { DETAIL_TYPE, EVENTS_SOURCE, isOutboxSource, type BusEntry, type EntryOutcome } from '../../vocabulary/bus.js';

export { EVENTS_SOURCE } from '../../vocabulary/bus.js';

/** EventBridge's limits for one PutEvents request. */
export const MAX_ENTRIES_PER_CALL = 10;
export const MAX_BYTES_PER_CALL = 256 * 1024;

export type PutEntries = (entries: readonly BusEntry[]) => Promise<EntryOutcome[]>;

export type { BusEntry, EntryOutcome } from '../../vocabulary/bus.js';

export interface RetryPolicy {
  /** Tries per entry, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Three tries; waits of up to 100 ms, then 200 ms (full jitter), capped at 2 s. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 100, maxDelayMs: 2000 };

/** An item that cannot become a bus entry (unknown entity, missing fields): a bug upstream. */
export class UnpublishableItemError extends Error {
  override readonly name = 'UnpublishableItemError';
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The bus entry of a table item (a stream record's new image), with the `correlation_id` of the
 * request that wrote it in its detail, when it has one: the consumers carry it on (docs/events.md).
 */
export function busEntryOf(item: Record<string, unknown>): BusEntry {
  const entry = uncorrelatedEntryOf(item);
  const correlationId = saneCorrelationId(item.correlation_id);
  return correlationId ? { ...entry, detail: { ...entry.detail, correlation_id: correlationId } } : entry;
}

function uncorrelatedEntryOf(item: Record<string, unknown>): BusEntry {
  if (item.entity === 'EVENT') {
    const event = eventFromItem(item);
    if (!event.tenant_id || !event.event_id || !event.type) {
      throw new UnpublishableItemError(
        `event item ${String(item.PK)}/${String(item.SK)} lacks tenant_id, event_id or type`,
      );
    }
    return {
      source: EVENTS_SOURCE,
      detailType: event.type,
      detail: event as unknown as Record<string, unknown>,
      time: event.received_at || new Date().toISOString(),
    };
  }
  if (item.entity === 'OUTBOX') {
    const {
      source,
      detail_type: detailType,
      tenant_id: tenantId,
      outbox_id: messageId,
      detail,
      created_at: createdAt,
    } = item;
    if (!isOutboxSource(source)) {
      throw new UnpublishableItemError(
        `outbox item ${String(messageId)}: source ${JSON.stringify(source)} is not gatehouse.<feature>`,
      );
    }
    if (typeof detailType !== 'string' || !DETAIL_TYPE.test(detailType)) {
      throw new UnpublishableItemError(
        `outbox item ${String(messageId)}: detail_type ${JSON.stringify(detailType)} is not like incident.created`,
      );
    }
    if (typeof tenantId !== 'string' || !tenantId || typeof messageId !== 'string' || !messageId || !isObject(detail)) {
      throw new UnpublishableItemError(
        `outbox item ${String(item.PK)}/${String(item.SK)} lacks tenant_id, outbox_id or a detail object`,
      );
    }
    return {
      source,
      detailType,
      // The item's tenant wins over anything the detail says: it is the partition it lives in.
      detail: { ...detail, tenant_id: tenantId, message_id: messageId },
      time: typeof createdAt === 'string' ? createdAt : new Date().toISOString(),
    };
  }
  throw new UnpublishableItemError(`entity ${JSON.stringify(item.entity)} is not published`);
}

/** PutEvents entry size as EventBridge counts it (Time 14 bytes, then UTF-8 lengths). */
export function entrySize(entry: BusEntry): number {
  return (
    14 +
    Buffer.byteLength(entry.source) +
    Buffer.byteLength(entry.detailType) +
    Buffer.byteLength(JSON.stringify(entry.detail))
  );
}

/**
 * An entry that fits one PutEvents call. An event whose payload makes it too large goes out
 * without `payload` and `description` and with `truncated: true` (integrators read the whole
 * event with GET /api/v1/events/{event_id}); failing that, with its ids only.
 */
export function fitEntry(entry: BusEntry, maxBytes = MAX_BYTES_PER_CALL): BusEntry {
  if (entrySize(entry) <= maxBytes) return entry;
  const { payload: _payload, description: _description, ...rest } = entry.detail;
  const trimmed = { ...entry, detail: { ...rest, truncated: true } };
  if (entrySize(trimmed) <= maxBytes) return trimmed;
  const ids = Object.fromEntries(
    ['tenant_id', 'event_id', 'message_id', 'type', 'correlation_id']
      .filter((k) => k in entry.detail)
      .map((k) => [k, entry.detail[k]]),
  );
  return { ...entry, detail: { ...ids, truncated: true } };
}

/** Consecutive groups of at most `maxEntries` entries and `maxBytes` bytes (entries already fit). */
export function chunkEntries<T extends { entry: BusEntry }>(
  items: readonly T[],
  maxEntries = MAX_ENTRIES_PER_CALL,
  maxBytes = MAX_BYTES_PER_CALL,
): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = entrySize(item.entry);
    if (current.length > 0 && (current.length === maxEntries || bytes + size > maxBytes)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** One thing to publish; `id` is the caller's (a stream record's sequence number). */
export interface PublishItem {
  id: string;
  entry: BusEntry;
}

export interface PublishFailure {
  id: string;
  errorCode: string;
  errorMessage: string;
}

export interface PublishResult {
  published: number;
  /** What still failed after the last try, in input order. */
  failed: PublishFailure[];
  /** PutEvents calls made. */
  calls: number;
}

export interface PublishOptions {
  retry?: RetryPolicy;
  /** Waits between tries; tests pass a recorder. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Publishes every entry, sending refused ones again after a pause (full jitter, doubling) until
 * the policy's tries are used up.
 */
export async function publishEntries(
  items: readonly PublishItem[],
  putEntries: PutEntries,
  options: PublishOptions = {},
): Promise<PublishResult> {
  const retry = options.retry ?? DEFAULT_RETRY;
  if (!(retry.attempts >= 1)) throw new Error('a retry policy needs at least one attempt');
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  let pending = items.map((item) => ({ ...item, entry: fitEntry(item.entry) }));
  let failures = new Map<string, PublishFailure>();
  let calls = 0;
  for (let attempt = 1; pending.length > 0 && attempt <= retry.attempts; attempt++) {
    if (attempt > 1) await sleep(random() * Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 2)));
    failures = new Map();
    for (const chunk of chunkEntries(pending)) {
      calls++;
      let outcomes: EntryOutcome[];
      try {
        outcomes = await putEntries(chunk.map((item) => item.entry));
      } catch (error) {
        // The call as a whole failed (after the SDK's own retries): every entry of it is retried.
        const err = error instanceof Error ? error : new Error(String(error));
        outcomes = chunk.map(() => ({ errorCode: err.name, errorMessage: err.message }));
      }
      chunk.forEach((item, i) => {
        const outcome = outcomes[i] ?? {
          errorCode: 'MissingResult',
          errorMessage: 'the bus returned no result for this entry',
        };
        if (outcome.errorCode) {
          failures.set(item.id, {
            id: item.id,
            errorCode: outcome.errorCode,
            errorMessage: outcome.errorMessage ?? '',
          });
        }
      });
    }
    pending = pending.filter((item) => failures.has(item.id));
  }
  const failed = items.flatMap((item) => {
    const failure = failures.get(item.id);
    return failure ? [failure] : [];
  });
  return { published: items.length - failed.length, failed, calls };
}

/** A table item to publish, with the caller's id for it. */
export interface ItemToPublish {
  id: string;
  item: Record<string, unknown>;
}

/**
 * Maps items to entries and publishes them. An item that cannot be mapped is a failure at once
 * (retrying will not fix it; its record goes to the dead-letter queue after the stream retries).
 */
export async function publishItems(
  items: readonly ItemToPublish[],
  putEntries: PutEntries,
  options: PublishOptions = {},
): Promise<PublishResult> {
  const unmappable: PublishFailure[] = [];
  const publishable: PublishItem[] = [];
  for (const { id, item } of items) {
    try {
      publishable.push({ id, entry: busEntryOf(item) });
    } catch (error) {
      if (!(error instanceof UnpublishableItemError)) throw error;
      unmappable.push({ id, errorCode: error.name, errorMessage: error.message });
    }
  }
  const result = await publishEntries(publishable, putEntries, options);
  const order = new Map(items.map((item, i) => [item.id, i]));
  const failed = [...unmappable, ...result.failed].sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return { published: result.published, failed, calls: result.calls };
}
