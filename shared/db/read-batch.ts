/**
 * Reads by key, many at once: one BatchGetItem round trip for up to 100 keys (more in as many
 * trips as needed), retrying what DynamoDB leaves unprocessed. The handler chain reads the
 * caller and the route's own lookups in one such trip (shared/auth/authenticate.ts); what it read
 * travels with the request as `Prefetched`, so a lookup is never made twice in one request.
 */
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import { chunksByOwner } from './keys.js';

export interface ItemKey {
  PK: string;
  SK: string;
}

export type Item = Record<string, unknown>;

const idOf = (key: ItemKey) => `${key.PK}\u0000${key.SK}`;

/** Items read by key in one request: each key maps to its item, or null when there is none. */
export class Prefetched {
  private readonly items = new Map<string, Item | null>();

  /** The item read for `key`: null when it does not exist, undefined when it was not read. */
  get(key: ItemKey): Item | null | undefined {
    return this.items.get(idOf(key));
  }

  has(key: ItemKey): boolean {
    return this.items.has(idOf(key));
  }

  set(key: ItemKey, item: Item | null): void {
    this.items.set(idOf(key), item);
  }
}

/** Full jitter: up to 50 ms, 100 ms, 200 ms, ... capped at 2 s. */
export function backoff(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(2000, 25 * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Reads `keys` into `into`, skipping keys it holds already and keys given twice. Returns `into`.
 * Consistently by default (what was written before is seen); `consistent: false` reads at half
 * the units, for items found through an index, which is itself eventually consistent.
 */
export async function readItems(
  keys: ItemKey[],
  into = new Prefetched(),
  { consistent = true }: { consistent?: boolean } = {},
): Promise<Prefetched> {
  const wanted = new Map<string, ItemKey>();
  for (const key of keys) if (!into.has(key)) wanted.set(idOf(key), { PK: key.PK, SK: key.SK });
  // A tenant's keys apart from another's and from the platform's: one call, one set of credentials.
  for (const chunk of chunksByOwner([...wanted.values()], (k) => k.PK, 100)) {
    for (const key of chunk) into.set(key, null);
    let request: Record<string, { Keys: Record<string, unknown>[]; ConsistentRead: boolean }> | undefined = {
      [TABLE]: { Keys: chunk.map((k) => ({ PK: k.PK, SK: k.SK })), ConsistentRead: consistent },
    };
    for (let attempt = 0; request && Object.keys(request).length > 0; attempt++) {
      if (attempt > 8) throw new Error('the table kept refusing reads; try again');
      if (attempt > 0) await backoff(attempt);
      const out = await db.send(new BatchGetCommand({ RequestItems: request }));
      for (const item of out.Responses?.[TABLE] ?? []) into.set({ PK: String(item.PK), SK: String(item.SK) }, item);
      request = out.UnprocessedKeys as typeof request;
    }
  }
  return into;
}
