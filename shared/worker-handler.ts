/**
 * The chain every worker's handler runs in, as shared/http/handler.ts is the routes': after each
 * invocation the worker's heartbeat (shared/db/heartbeats.ts) records a run, and a failure when
 * the invocation threw or reported failed records (a batch's `batchItemFailures`), and how long its
 * batch's oldest record had waited (`batchLagMs`). The live status
 * and the agents are derived from these (shared/domain/operations/status.ts).
 * And the one way a batch's partial failures are answered, for the queues and the table's stream
 * (`queueWorker`, `queueBatchWorker`, `streamBatch`, on Powertools' batch utility), and the
 * scheduled sweeps' run (`sweepWorker`): a worker is then a few lines of glue, as a route is.
 *
 * Each invocation runs with no tenant decided (shared/tenant-scope.ts), its calls on a tenant's
 * data with that tenant's credentials (docs/architecture.md, 27): a stream batch's records a
 * tenant at a time (`streamBatch`), a queue's messages and a sweep's calls each as the tenant its
 * keys name (`queueBatch`, `queueBatchOf`, `sweepWorker`); the function's own role reaches the
 * platform's partitions only.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { workerScopeOf } from './adapters/tenant-credentials.js';
import { recordHeartbeat } from './db/heartbeats.js';
import { byOwner, tenantOfPartition } from './db/keys.js';
import { invocationFields, log, saneCorrelationId, withLogContext } from './log.js';
import { flushingMetrics } from './metrics.js';
import { asEachTenant, asTenant, withUndecidedTenant } from './tenant-scope.js';
import { traced } from './tracing.js';
import type { QueueMessage } from './vocabulary/queues.js';
import type { TableStreamTrigger } from './workers.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (...args: any[]) => Promise<unknown>;

interface BatchRecord {
  dynamodb?: { ApproximateCreationDateTime?: number };
  attributes?: { SentTimestamp?: string; ApproximateReceiveCount?: string };
}

/**
 * How long the oldest record of a batch waited before this invocation: a stream record since its
 * change (its approximate creation time, in seconds), a queue message since it was sent, on its
 * first receive only (a retry waits out its backoff by design). Null for other events.
 */
export function batchLagMs(event: unknown, nowMs: number): number | null {
  const records = (event as { Records?: BatchRecord[] } | null | undefined)?.Records;
  if (!Array.isArray(records)) return null;
  const ages = records.flatMap((r) => {
    const created = r.dynamodb?.ApproximateCreationDateTime;
    if (typeof created === 'number') return [nowMs - created * 1000];
    const sent = Number(r.attributes?.SentTimestamp);
    if (Number.isFinite(sent) && r.attributes?.ApproximateReceiveCount === '1') return [nowMs - sent];
    return [];
  });
  return ages.length > 0 ? Math.max(0, ...ages) : null;
}

interface CorrelatedRecord {
  body?: string;
  dynamodb?: { NewImage?: { correlation_id?: { S?: string } } };
}

const correlationIds = new WeakMap<object, string | null>();

/**
 * The correlation id a record carries (shared/log.ts), or null: a stream record's item's
 * `correlation_id`, a queue message's (a bus event's `detail.correlation_id`, or a job's own).
 */
export function recordCorrelationId(record: CorrelatedRecord): string | null {
  if (correlationIds.has(record)) return correlationIds.get(record)!;
  let id = saneCorrelationId(record.dynamodb?.NewImage?.correlation_id?.S);
  if (!id && typeof record.body === 'string' && record.body.includes('"correlation_id"')) {
    try {
      const body = JSON.parse(record.body) as { correlation_id?: unknown; detail?: { correlation_id?: unknown } };
      id = saneCorrelationId(body.detail?.correlation_id) ?? saneCorrelationId(body.correlation_id);
    } catch {
      // Not JSON: the worker says so itself.
    }
  }
  correlationIds.set(record, id ?? null);
  return id ?? null;
}

/** The distinct correlation ids of a batch's records, for every line of its invocation. */
function batchCorrelationIds(event: unknown): string[] | undefined {
  const records = (event as { Records?: unknown } | null | undefined)?.Records;
  if (!Array.isArray(records)) return undefined;
  const ids = new Set<string>();
  for (const r of records) {
    const id = typeof r === 'object' && r !== null ? recordCorrelationId(r as CorrelatedRecord) : null;
    if (id) ids.add(id);
  }
  return ids.size > 0 ? [...ids] : undefined;
}

const failedItems = (result: unknown): number => {
  const failures = (result as { batchItemFailures?: unknown[] } | null | undefined)?.batchItemFailures;
  return Array.isArray(failures) ? failures.length : 0;
};

/**
 * The handler, recording a heartbeat after each invocation; its signature unchanged. Each
 * invocation runs in a log context of its own (shared/log.ts): its lines carry the worker's id and
 * its records' correlation ids, and it ends with one line saying how it went. Its trace's handler
 * subsegment (shared/tracing.ts) is annotated with the worker's id as `route`; a worker has no tier.
 * It runs with no tenant decided: its calls on a tenant's data need `asTenant` or `asEachTenant`
 * (shared/tenant-scope.ts), else they run with the function's own role, which reaches the
 * platform's partitions only.
 */
export function withHeartbeat<H extends Handler>(workerId: string, handler: H): H {
  const wrapped = (...args: Parameters<H>) => withUndecidedTenant(workerScopeOf, () => logged(...args));
  const logged = (...args: Parameters<H>) =>
    withLogContext(
      {
        ...invocationFields(args[1] as Context | undefined),
        worker: workerId,
        correlation_ids: batchCorrelationIds(args[0]),
      },
      () => traced({ route: workerId }, () => invoke(...args)),
    );
  const invoke = async (...args: Parameters<H>) => {
    const startedAt = Date.now();
    const lag = batchLagMs(args[0], startedAt);
    let error: string | null = null;
    try {
      const result = await handler(...args);
      const failed = failedItems(result);
      if (failed > 0) error = `${failed} record${failed === 1 ? '' : 's'} failed and will be tried again`;
      log.info('invocation', { records: recordsOf(args[0]), failed, duration_ms: Date.now() - startedAt });
      return result;
    } catch (err) {
      // The class only: a message can carry an address (ECONNREFUSED 10.0.0.5:443), a table's or a
      // queue's name, and the live status is public. The message is in the worker's own log.
      error = err instanceof Error ? err.name : 'a non-Error value was thrown';
      log.error('invocation failed', { records: recordsOf(args[0]), duration_ms: Date.now() - startedAt, err });
      throw err;
    } finally {
      // The work's outcome stands either way: a heartbeat that cannot be written is logged, not
      // turned into a failure that would make the work run again.
      await recordHeartbeat(workerId, Date.now(), error, lag).catch((err: unknown) =>
        log.warn('the worker heartbeat could not be written', { worker: workerId, err }),
      );
    }
  };
  return flushingMetrics(wrapped) as H;
}

/**
 * Partial batch failures, one way for the queues and the table's stream: Powertools'
 * BatchProcessor runs the work of each record and names those that threw in `batchItemFailures`
 * (the others are done: a queue deletes them, the stream moves past them). A batch whose every
 * record failed is answered the same way rather than thrown (`throwOnFullBatchFailure: false`):
 * the local queue and stream stand-ins (shared/local) and the heartbeat read the answer, and Lambda
 * treats both alike.
 */
function partialResponse<R extends SQSRecord | DynamoDBRecord>(
  type: 'SQS' | 'DynamoDBStreams',
  records: readonly R[],
  work: (record: R) => Promise<unknown>,
  parallel: boolean,
): Promise<{ batchItemFailures: { itemIdentifier: string }[] }> {
  // A processor per batch: it holds the batch's records and outcomes, and batches may overlap.
  const processor = new BatchProcessor(EventType[type]);
  return processPartialResponse({ Records: [...records] }, work as (record: unknown) => Promise<unknown>, processor, {
    throwOnFullBatchFailure: false,
    processInParallel: parallel,
  });
}

const recordsOf = (event: unknown): number | undefined => {
  const records = (event as { Records?: unknown } | null | undefined)?.Records;
  return Array.isArray(records) ? records.length : undefined;
};

const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

export interface QueueBatchOptions {
  /**
   * What is done with a failed message besides reporting it: hidden for a backoff, or the delay its
   * `RetryAfter` asks (shared/adapters/queue-retry.ts `backoffOn`), so it returns in seconds.
   * Without it, it returns after the queue's visibility timeout. (Passed in, not imported here: a
   * worker that does not hide its messages carries no SQS client.)
   */
  hide?: (record: SQSRecord, err: unknown) => Promise<void>;
  /** The messages' work all at once; by default one after the other. */
  parallel?: boolean;
}

/**
 * The work of each message of a queue's batch; a message whose work throws is reported (and hidden
 * for its backoff). The messages are many tenants', in bodies of many shapes: each call runs as the
 * tenant its keys name (shared/tenant-scope.ts `asEachTenant`).
 */
export function queueBatch(
  event: SQSEvent,
  work: (record: SQSRecord) => Promise<unknown>,
  options: QueueBatchOptions = {},
): Promise<SQSBatchResponse> {
  return partialResponse(
    'SQS',
    event.Records,
    (record) =>
      withLogContext(
        { correlation_id: recordCorrelationId(record) ?? undefined, sqs_message_id: record.messageId },
        () => asEachTenant(() => queueRecord(record)),
      ),
    options.parallel ?? false,
  );

  async function queueRecord(record: SQSRecord) {
    try {
      return await work(record);
    } catch (err) {
      // A delivery to try later (RetryAfter) is no fault.
      if ((err as Error | undefined)?.name !== 'RetryAfter')
        log.warn('a queue message failed; it is tried again', { sqs_message_id: record.messageId, err });
      await options.hide?.(record, err);
      throw asError(err);
    }
  }
}

/**
 * The work of a whole queue's batch at once (a tenant's subscriptions read once, one file per
 * tenant and day): it answers the messages that failed, with why; each is then reported as if
 * its own work had thrown. Each of its calls runs as the tenant its keys name.
 */
export async function queueBatchOf(
  event: SQSEvent,
  work: (messages: readonly QueueMessage<SQSRecord>[]) => Promise<ReadonlyMap<SQSRecord, unknown>>,
  options: QueueBatchOptions = {},
): Promise<SQSBatchResponse> {
  const failed = await asEachTenant(() => work(event.Records.map((r) => ({ key: r, id: r.messageId, body: r.body }))));
  return queueBatch(
    event,
    async (record) => {
      if (failed.has(record)) throw failed.get(record);
    },
    options,
  );
}

/**
 * Whether the trigger's filters pass a record (shared/workers.ts `passesStreamFilters`, here by
 * its type only: importing the worker table would put it in every worker's bundle).
 */
const passes = (trigger: TableStreamTrigger, eventName: string | undefined, entity: string | undefined): boolean =>
  trigger.filters.some(
    (f) => (f.eventNames as readonly string[]).includes(eventName ?? '') && f.entities.includes(entity ?? ''),
  );

/** A stream record's new image, read: what the stream workers' domain functions take. */
export interface StreamItem {
  /** The record's sequence number. */
  id: string;
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  item: Record<string, unknown>;
}

/**
 * `work` on each tenant's items as that tenant (shared/tenant-scope.ts `asTenant`), grouped by the
 * tenant of each item's partition key, each group in stream order: a record of tenant A reaches A's
 * data only; the platform's items with the function's own role. The tenants' groups run at once
 * (their data are apart); their failures are merged.
 */
async function perTenant(
  items: readonly StreamItem[],
  work: (items: readonly StreamItem[]) => Promise<ReadonlyMap<string, unknown>>,
): Promise<ReadonlyMap<string, unknown>> {
  const pkOf = (item: StreamItem) => (typeof item.item.PK === 'string' ? item.item.PK : '');
  const answers = await Promise.all(
    byOwner(items, pkOf).map((group) => {
      const tenant = tenantOfPartition(pkOf(group[0]!));
      return tenant === undefined ? work(group) : asTenant(tenant, () => work(group));
    }),
  );
  return new Map(answers.flatMap((answer) => [...answer]));
}

/**
 * A batch of the table's stream: the records the worker's trigger's filters pass, when given (the
 * event source mapping lets only those through; anything else is not its own) are read and handed
 * to `work` a tenant at a time (`perTenant`; `tenants: 'all'` at once, for a worker on no tenant's
 * data), in stream order; it answers the ids of those that failed, with why. A record that cannot
 * be read fails. The failures are reported in record order: Lambda resumes the shard from the
 * first one.
 */
export async function streamBatch(
  records: readonly DynamoDBRecord[],
  work: (items: readonly StreamItem[]) => Promise<ReadonlyMap<string, unknown>>,
  trigger?: TableStreamTrigger,
  tenants: 'each' | 'all' = 'each',
): Promise<DynamoDBBatchResponse> {
  const failed = new Map<string, unknown>();
  const items: StreamItem[] = [];
  for (const record of records) {
    const id = record.dynamodb?.SequenceNumber;
    const image = record.dynamodb?.NewImage;
    if (!id || !image || (trigger && !passes(trigger, record.eventName, image.entity?.S))) continue;
    try {
      // Lambda's AttributeValue (binary as base64 text) and the SDK's differ only in binary types,
      // which these items do not hold.
      items.push({ id, eventName: record.eventName!, item: unmarshall(image as Record<string, AttributeValue>) });
    } catch (err) {
      log.error('stream record could not be read', { sequence_number: id, err });
      failed.set(id, err);
    }
  }
  const answer = tenants === 'all' ? await work(items) : await perTenant(items, work);
  for (const [id, reason] of answer) failed.set(id, reason);
  return partialResponse(
    'DynamoDBStreams',
    records,
    async (record) => {
      const id = record.dynamodb?.SequenceNumber;
      if (id && failed.has(id)) throw asError(failed.get(id));
    },
    false,
  );
}

/** A queue's worker: each message's work, failures reported per message; its heartbeat recorded. */
export const queueWorker = (
  workerId: string,
  options: QueueBatchOptions,
  work: (record: SQSRecord) => Promise<unknown>,
) => withHeartbeat(workerId, (event: SQSEvent) => queueBatch(event, work, options));

/** A queue's worker doing the batch's work at once (`queueBatchOf`); its heartbeat recorded. */
export const queueBatchWorker = (
  workerId: string,
  options: QueueBatchOptions,
  work: Parameters<typeof queueBatchOf>[1],
) => withHeartbeat(workerId, (event: SQSEvent) => queueBatchOf(event, work, options));

/** Left to a scheduled run for its last writes and its log line when its deadline comes. */
const DEADLINE_MARGIN_MS = 10_000;

/**
 * A scheduled worker's run (a sweep of timers, of tenants): `work` goes on until its deadline (the
 * invocation's, less a margin), each of its calls as the tenant its keys name
 * (shared/tenant-scope.ts `asEachTenant`), and answers what it did, with how many items `failed`. The answer
 * is logged; a run with failures then throws, so the error count and the dead-letter alarm show it,
 * and the next run tries the failed items again.
 */
export const sweepWorker = <R extends { failed: number }>(
  workerId: string,
  failedItems: string,
  work: (deadline: number, context: Context) => Promise<R>,
) =>
  withHeartbeat(workerId, async (_event: unknown, context: Context): Promise<R> => {
    const deadline = Date.now() + context.getRemainingTimeInMillis() - DEADLINE_MARGIN_MS;
    const result = await asEachTenant(() => work(deadline, context));
    log.info('scheduled run done', { worker: workerId, ...result });
    if (result.failed > 0)
      throw new Error(`${result.failed} ${failedItems} could not be handled; the next run tries again`);
    return result;
  });
