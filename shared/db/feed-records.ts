/**
 * Records of public feeds (docs/feeds.md), kept once for the whole platform and read by every
 * tenant: one item per record, `PK=FEED#<feed>`, `SK=R#<record id>` (docs/data-model.md,
 * pattern 50), with a hash of its content. Storing a poll's records reads their items first (100
 * to a BatchGetItem) and writes only the new and the changed ones: a re-poll stores nothing twice,
 * and says how many records were new, changed and unchanged.
 */
import { createHash } from 'node:crypto';
import { queryPage } from './query.js';
import { writeAll } from './events.js';
import { readItems } from './read-batch.js';

/** Platform partitions of feed records start with this (IAM fences them by it). */
export const FEED_PK_PREFIX = 'FEED#';

export const feedRecordKey = (feed: string, id: string) => ({ PK: `${FEED_PK_PREFIX}${feed}`, SK: `R#${id}` });

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
export async function storeFeedRecords(feed: string, records: readonly { id: string }[], fetchedAt: string, expiresAt: number | null): Promise<StoreOutcome> {
  const unique = new Map(records.map((r) => [r.id, r]));
  const read = await readItems([...unique.keys()].map((id) => feedRecordKey(feed, id)));
  const writes: Record<string, unknown>[] = [];
  const outcome: StoreOutcome = { stored: 0, updated: 0, unchanged: 0 };
  for (const [id, record] of unique) {
    const key = feedRecordKey(feed, id);
    const hash = hashOf(record);
    const before = read.get(key);
    if (before && before.content_hash === hash) {
      outcome.unchanged++;
      continue;
    }
    if (before) outcome.updated++;
    else outcome.stored++;
    writes.push({ ...key, entity: 'FEED_RECORD', feed, record, content_hash: hash, fetched_at: fetchedAt, ...(expiresAt !== null ? { expires_at: expiresAt } : {}) });
  }
  if (writes.length > 0) await writeAll(writes);
  return outcome;
}

/** A feed's records, by id order, at most `limit` (one Query, and more pages only past 1 MB). */
export async function feedRecords<R>(feed: string, limit: number): Promise<R[]> {
  const items = await queryPage({ pk: `${FEED_PK_PREFIX}${feed}`, skPrefix: 'R#', ascending: true }, { limit, offset: 0 });
  return items.map((i) => i.record as R);
}
