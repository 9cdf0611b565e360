/**
 * Records of public feeds (docs/feeds.md), kept once per source for the whole platform: one item
 * per record, `PK=FEED#<source>`, `SK=R#<record id>` (docs/data-model.md, pattern 50), with a hash
 * of its content. A source is the feed's name when it is read from its public URL, and the name
 * and a hash of the URL otherwise (shared/domain/connectors/feed-sources.ts): a tenant reads the
 * sources its connectors poll. Storing a poll's records reads their items first (100
 * to a BatchGetItem) and writes only the new and the changed ones: a re-poll stores nothing twice,
 * and says how many records were new, changed and unchanged.
 */
import { createHash } from 'node:crypto';
import { queryPage } from './query.js';
import { writeAll } from './events.js';
import { readItems } from './read-batch.js';

import { FEED_PK_PREFIX } from './keys.js';

export const feedRecordKey = (source: string, id: string) => ({ PK: `${FEED_PK_PREFIX}${source}`, SK: `R#${id}` });

/**
 * A hazard record's entry in time order (pattern 50a): GSI1 `FEED#<source>#BYTIME`,
 * `<time>#<record id>`, the time being what the risk route reads a window of (an origin time, an
 * event's end, an alert's expiry).
 */
const feedTimePk = (source: string) => `${FEED_PK_PREFIX}${source}#BYTIME`;
const feedTimeKey = (source: string, time: string, id: string) => ({
  GSI1PK: feedTimePk(source),
  GSI1SK: `${time}#${id}`,
});

export interface StoreOutcome {
  stored: number;
  updated: number;
  unchanged: number;
}

const hashOf = (record: object) => createHash('sha256').update(JSON.stringify(record)).digest('base64url');

/**
 * Keeps the records of one poll: new ones are put, changed ones (another hash) replaced, the rest
 * left alone. `expiresAt` (Unix seconds) ends a record's life, or null to keep it.
 */
export async function storeFeedRecords<R extends { id: string }>(
  source: string,
  records: readonly R[],
  fetchedAt: string,
  expiresAt: number | null,
  timeOf?: (record: R) => string | null,
): Promise<StoreOutcome> {
  const unique = new Map(records.map((r) => [r.id, r]));
  const read = await readItems([...unique.keys()].map((id) => feedRecordKey(source, id)));
  const writes: Record<string, unknown>[] = [];
  const outcome: StoreOutcome = { stored: 0, updated: 0, unchanged: 0 };
  for (const [id, record] of unique) {
    const key = feedRecordKey(source, id);
    const time = timeOf?.(record) ?? null;
    const index = time === null ? {} : feedTimeKey(source, time, id);
    // The index key is part of what is compared: a record kept before its feed was indexed is written once more.
    const hash = hashOf(time === null ? record : [record, index]);
    const before = read.get(key);
    if (before && before.content_hash === hash) {
      outcome.unchanged++;
      continue;
    }
    if (before) outcome.updated++;
    else outcome.stored++;
    writes.push({
      ...key,
      ...index,
      entity: 'FEED_RECORD',
      source,
      record,
      content_hash: hash,
      fetched_at: fetchedAt,
      ...(expiresAt !== null ? { expires_at: expiresAt } : {}),
    });
  }
  if (writes.length > 0) await writeAll(writes);
  return outcome;
}

/** A source's records, in id order (or the reverse), at most `limit`; only ids starting with `idPrefix` when given. */
export async function feedRecords<R>(
  source: string,
  limit: number,
  options: { idPrefix?: string; newestFirst?: boolean } = {},
): Promise<R[]> {
  const items = await queryPage(
    { pk: `${FEED_PK_PREFIX}${source}`, skPrefix: `R#${options.idPrefix ?? ''}`, ascending: !options.newestFirst },
    { limit, offset: 0 },
  );
  return items.map((i) => i.record as R);
}

/** The record `id` of each source that has it (one BatchGetItem). */
export async function feedRecordIn<R>(
  sources: readonly string[],
  id: string,
): Promise<{ source: string; record: R; fetched_at: string }[]> {
  const read = await readItems(sources.map((s) => feedRecordKey(s, id)));
  return sources.flatMap((s) => {
    const item = read.get(feedRecordKey(s, id));
    return item ? [{ source: s, record: item.record as R, fetched_at: item.fetched_at as string }] : [];
  });
}

/** A source's indexed records whose time is at least `from` (ISO), latest first, at most `limit` (one Query of GSI1, paged by 1 MB). */
export async function feedRecordsSince<R>(source: string, from: string, limit: number): Promise<R[]> {
  const items = await queryPage(
    { index: 'GSI1', pk: feedTimePk(source), skBetween: [from, '\uffff'], ascending: false },
    { limit, offset: 0 },
  );
  return items.map((i) => i.record as R);
}

/** The records kept under these sources and ids, those that exist (⌈keys / 100⌉ BatchGetItems). */
export async function feedRecordsAt<R>(
  keys: readonly { source: string; id: string }[],
): Promise<{ source: string; record: R }[]> {
  if (keys.length === 0) return [];
  const read = await readItems(keys.map((k) => feedRecordKey(k.source, k.id)));
  return keys.flatMap(({ source, id }) => {
    const item = read.get(feedRecordKey(source, id));
    return item ? [{ source, record: item.record as R }] : [];
  });
}
