/**
 * A tenant's revision of a kind of thing (zones, threat libraries): one item that every write of
 * that kind moves in its own transaction, so a reader that kept what it read (a function
 * container's cache) reads the revision, consistently and by key, and reads the things again
 * only when it moved.
 */
import { TABLE } from './client.js';
import type { ItemKey, Prefetched } from './read-batch.js';
import type { TransactItem } from './transact.js';

/** How many times the things changed, and the time of the last change (ms). */
export interface Revision {
  revision: number;
  changedAtMs: number;
}

/** The transaction item that moves the revision at `key` (creating it at 1). */
export function bumpRevision(key: ItemKey): TransactItem {
  return {
    Update: {
      TableName: TABLE,
      Key: key,
      UpdateExpression: 'SET revision = if_not_exists(revision, :zero) + :one, changed_at_ms = :now',
      ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':now': Date.now() },
    },
  };
}

/** The revision at `key` among items read in one batch (none yet: revision 0, never changed); undefined when it was not read. */
export function revisionFrom(read: Prefetched, key: ItemKey): Revision | undefined {
  const item = read.get(key);
  if (item === undefined) return undefined;
  return { revision: Number(item?.revision ?? 0), changedAtMs: Number(item?.changed_at_ms ?? 0) };
}
