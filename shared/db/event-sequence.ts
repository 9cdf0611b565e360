/**
 * Each tenant's store sequence: the order the live stream sends events in (pattern 25,
 * shared/domain/events/stream.ts). Ingest reserves a range of numbers from the tenant's counter
 * (one UpdateItem per tenant of a request, alongside the meter's) just before it writes, and each
 * event item carries its number as GSI5's sort key (`GSI5SK`; GSI5's partition key is the
 * events' own `PK`) and the time the range was reserved on the writer's clock (`seq_at`): about
 * 35 bytes, so a typical event stays under 1 KB; a request that gives its range up before writing anything says so
 * with one small item in the same index, so streams skip it at once. Events stored before the
 * sequence existed carry none and are not in GSI5.
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import { eventFromItem, eventKey, type StoredEvent } from './events.js';
import * as keys from './item-keys.js';
import { sequenceKey } from './keys.js';
import { readItems } from './read-batch.js';
import type { TenantId } from '../vocabulary/tenant.js';

/** Numbers `first` to `last` of a tenant's sequence, reserved at `atMs` (this machine's clock, just before asking). */
export interface SequenceRange {
  first: number;
  last: number;
  atMs: number;
}

/** One entry of a tenant's sequence: an event, or a range given up (no event will have those numbers). */
export interface SequenceEntry {
  seq: number;
  /** The last number the entry covers: `seq` for an event, the end of a range given up. */
  last: number;
  /** When the number was reserved, on the reserving writer's clock. */
  atMs: number;
  event: StoredEvent | null;
}

const VOID_ENTITY = 'EVENT_SEQUENCE_VOID';
/** A given-up range is kept two days: longer than any stream waits at it. */
const VOID_KEEP_SECONDS = 2 * 86_400;

/** Reserves `count` numbers of the tenant's sequence: one UpdateItem (ADD on the counter). */
export async function reserveSequences(tenantId: TenantId, count: number): Promise<SequenceRange> {
  const atMs = Date.now();
  const out = await db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: keys.eventSequence(tenantId),
      UpdateExpression: 'ADD seq :n',
      ExpressionAttributeValues: { ':n': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const last = Number(out.Attributes?.seq);
  return { first: last - count + 1, last, atMs };
}

/** An event item (shared/db/events.ts `eventItem`) with its number of the tenant's sequence. */
export function withSequence(item: Record<string, unknown>, seq: number, atMs: number): Record<string, unknown> {
  return { ...item, ...keys.eventInSequence(seq), seq_at: atMs };
}

/** An item's number (its GSI5 sort key); NaN for an item without one. */
const seqOf = (item: Record<string, unknown>) => Number(item.GSI5SK);
const tenantOfEventPk = (pk: unknown) => String(pk).slice(2, -'#EVENT'.length) as TenantId;

/**
 * What `writeAll` calls before each attempt: items whose numbers were reserved more than
 * `maxAgeMs` ago get new ones (one UpdateItem per tenant), so that no event is written with a
 * number a stream may already have given up waiting for; their old numbers (never written: these
 * items are the ones not written yet) are given up.
 */
export function renumberStale(
  maxAgeMs: number,
): (items: Record<string, unknown>[]) => Promise<Record<string, unknown>[]> {
  return async (items) => {
    const now = Date.now();
    const stale = new Map<TenantId, Record<string, unknown>[]>();
    for (const item of items) {
      if (item.GSI5SK === undefined || now - Number(item.seq_at) <= maxAgeMs) continue;
      const tenantId = tenantOfEventPk(item.PK);
      stale.set(tenantId, [...(stale.get(tenantId) ?? []), item]);
    }
    if (stale.size === 0) return items;
    const renumbered = new Map<Record<string, unknown>, Record<string, unknown>>();
    await Promise.all(
      [...stale].map(async ([tenantId, group]) => {
        const range = await reserveSequences(tenantId, group.length);
        group.sort((a, b) => seqOf(a) - seqOf(b));
        group.forEach((item, i) => renumbered.set(item, withSequence(item, range.first + i, range.atMs)));
        // The old numbers will have no event: said so, best effort (else streams wait them out).
        const runs: SequenceRange[] = [];
        for (const item of group) {
          const seq = seqOf(item);
          const run = runs.at(-1);
          if (run && run.last === seq - 1) run.last = seq;
          else runs.push({ first: seq, last: seq, atMs: Number(item.seq_at) });
        }
        await Promise.allSettled(runs.map((run) => giveUpSequences(tenantId, run)));
      }),
    );
    return items.map((item) => renumbered.get(item) ?? item);
  };
}

/**
 * Says that no event will have the numbers of `range` (the request failed before writing): one
 * PutItem, so a stream skips them at once rather than after its gap timeout.
 */
export async function giveUpSequences(tenantId: TenantId, range: SequenceRange): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: {
        ...keys.eventSequenceVoid(tenantId, range.first),
        ...keys.eventInSequence(range.first),
        entity: VOID_ENTITY,
        seq_last: range.last,
        seq_at: range.atMs,
        expires_at: Math.floor(Date.now() / 1000) + VOID_KEEP_SECONDS,
      },
    }),
  );
}

function entryOf(item: Record<string, unknown>): SequenceEntry {
  const seq = seqOf(item);
  const isVoid = item.entity === VOID_ENTITY;
  return {
    seq,
    last: isVoid ? Number(item.seq_last) : seq,
    atMs: Number(item.seq_at),
    event: isVoid ? null : eventFromItem(item),
  };
}

/**
 * A tenant's sequence entries after `afterSeq`, lowest first (or, `descending`, those below
 * `beforeSeq`, highest first): one Query of GSI5, at most `limit` items. `more`: the page was
 * full. Eventually consistent, as every index: an entry may show later than its write.
 */
export async function sequenceEntries(
  tenantId: TenantId,
  from: { afterSeq: number } | { beforeSeq?: number },
  limit: number,
): Promise<{ entries: SequenceEntry[]; more: boolean }> {
  const ascending = 'afterSeq' in from;
  const bound = ascending ? from.afterSeq : from.beforeSeq;
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: 'GSI5',
      KeyConditionExpression: `PK = :pk${bound === undefined ? '' : ascending ? ' AND GSI5SK > :bound' : ' AND GSI5SK < :bound'}`,
      ExpressionAttributeValues: {
        ':pk': eventKey(tenantId, '').PK,
        ...(bound === undefined ? {} : { ':bound': sequenceKey(bound) }),
      },
      ScanIndexForward: ascending,
      Limit: limit,
    }),
  );
  return { entries: (out.Items ?? []).map(entryOf), more: Boolean(out.LastEvaluatedKey) };
}

/** An event's number in its tenant's sequence; null when there is no such event or it has none (stored before). */
export async function sequenceOfEvent(
  tenantId: TenantId,
  eventId: string,
): Promise<{ seq: number; atMs: number } | null> {
  const out = await db.send(
    new GetCommand({
      TableName: TABLE,
      Key: eventKey(tenantId, eventId),
      ProjectionExpression: 'GSI5SK, seq_at',
      ConsistentRead: true,
    }),
  );
  return out.Item?.GSI5SK === undefined ? null : { seq: seqOf(out.Item), atMs: Number(out.Item.seq_at) };
}

/** Which of `tenantIds` holds the event, with its number: one BatchGetItem per 100 tenants. */
export async function findSequencedEvent(
  tenantIds: readonly TenantId[],
  eventId: string,
): Promise<{ tenantId: TenantId; seq: number; atMs: number } | null> {
  const read = await readItems(tenantIds.map((t) => eventKey(t, eventId)));
  for (const tenantId of tenantIds) {
    const item = read.get(eventKey(tenantId, eventId));
    if (item?.GSI5SK !== undefined) return { tenantId, seq: seqOf(item), atMs: Number(item.seq_at) };
  }
  return null;
}
