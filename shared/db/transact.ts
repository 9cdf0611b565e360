/** Transactions that say which of their conditions failed, so callers can answer 404 or 409. */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../errors.js';
import { log } from '../log.js';
import { db } from './client.js';
import { backoff } from './read-batch.js';

/**
 * A step an item asks for before its transaction is sent, given all the transaction's items, once
 * however many items ask for the same step: the audit entries of a transaction are sealed together
 * this way (shared/db/audit/seal.ts), so an entry is never written unsealed.
 */
export const BEFORE_WRITE = Symbol.for('gatehouse.beforeWrite');
export type BeforeWrite = (items: readonly TransactItem[]) => Promise<void>;

/**
 * Items a transaction's items ask to be written with them, given all its items, once however many
 * items ask: the audit entries of a transaction add one count per tenant and day
 * (shared/db/audit/counts.ts). They count toward the transaction's 100 items.
 */
export const WRITE_WITH = Symbol.for('gatehouse.writeWith');
export type WriteWith = (items: readonly TransactItem[]) => TransactItem[];

/**
 * A step an item asks for once its transaction is in, once however many items ask: clean-up that
 * may lag the change without harm (the list rows an incident left, which readers skip meanwhile:
 * shared/db/incidents.ts). The change is in whatever the step does: a step that fails is logged,
 * and the transaction's caller is answered as the write succeeded.
 */
export const AFTER_WRITE = Symbol.for('gatehouse.afterWrite');
export type AfterWrite = () => Promise<void>;

/** DynamoDB's most items in one transaction. */
export const MAX_TRANSACTION_ITEMS = 100;

/**
 * An item that may leave a transaction that would otherwise hold more than DynamoDB's 100 items.
 * The function it carries is its group's (one per group, the same for each of its items): given
 * those of its items that leave, it answers the one item written in their place, which asks
 * (AFTER_WRITE) to write what they would have once the transaction is in. The list counts of an
 * incident joining or leaving many zones go so (shared/db/incident-list-counts.ts). A transaction
 * of 100 items or fewer is sent as it is.
 */
export const DEFERRABLE = Symbol.for('gatehouse.deferrable');
export type Defer = (deferred: readonly TransactItem[]) => TransactItem;

/**
 * An item that may be written under another key when the transaction already holds an operation on
 * its own: DynamoDB refuses a transaction with two operations on one item. A sharded count's ADD may go to any of its
 * shards: two incidents of one shard that join and leave one zone in a transaction (an event moved
 * between them) each move their count (shared/db/incident-list-counts.ts). Given whether a key is
 * taken, it answers a free key, or undefined when every one is taken.
 */
export const MOVABLE = Symbol.for('gatehouse.movable');
export type Move = (taken: (key: ItemKey) => boolean) => ItemKey | undefined;
type ItemKey = Record<string, unknown>;

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number] & {
  [BEFORE_WRITE]?: BeforeWrite;
  [WRITE_WITH]?: WriteWith;
  [AFTER_WRITE]?: AfterWrite;
  [DEFERRABLE]?: Defer;
  [MOVABLE]?: Move;
};

/**
 * Thrown when the condition of item `index` of a transaction did not hold. DynamoDB checks every
 * item's condition and gives a reason for each, so `indexes` lists all the items whose condition
 * failed (`index` is the first of them): a caller that dropped those items could try the rest.
 */
export class ConditionFailed extends Error {
  readonly indexes: readonly number[];
  constructor(
    readonly index: number,
    indexes: readonly number[] = [index],
  ) {
    super(`condition of transaction item ${indexes.join(', ')} failed`);
    this.indexes = indexes;
  }
}

/** Tries of a transaction that collided with another one on an item they share (a count, a revision). */
const CONFLICT_TRIES = 4;

export async function transactWrite(items: TransactItem[], clientRequestToken?: string): Promise<void> {
  for (const step of new Set(items.flatMap((item) => item[BEFORE_WRITE] ?? []))) await step(items);
  const added = [...new Set(items.flatMap((item) => item[WRITE_WITH] ?? []))].flatMap((also) => also(items));
  const { send, origin } = fitted([...items, ...added]);
  const toSend = onePerItem(send).map(
    ({
      [BEFORE_WRITE]: _step,
      [WRITE_WITH]: _with,
      [AFTER_WRITE]: _after,
      [DEFERRABLE]: _defer,
      [MOVABLE]: _move,
      ...item
    }) => item,
  );
  for (let attempt = 0; ; attempt++) {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: toSend, ClientRequestToken: clientRequestToken }));
      await afterWrite([...items, ...send.slice(origin.length)]);
      return;
    } catch (err) {
      if (!(err instanceof TransactionCanceledException)) throw err;
      const reasons = err.CancellationReasons ?? [];
      // Indexes of the items as given (an item that stands for deferred ones has none: it has no condition).
      const failed = reasons.flatMap((r, i) =>
        r.Code === 'ConditionalCheckFailed' && i < origin.length ? [origin[i]!] : [],
      );
      if (failed.length > 0) throw new ConditionFailed(failed[0]!, failed);
      // Two writers of one item at once (an environment's count, a tenant's zone revision):
      // nothing was written; the same transaction again, after a pause, is safe.
      if (attempt + 1 < CONFLICT_TRIES && reasons.some((r) => r.Code === 'TransactionConflict')) {
        await backoff(attempt + 1);
        continue;
      }
      throw err;
    }
  }
}

/**
 * The items to send: all of them when they are 100 or fewer; else, largest group first, as many
 * DEFERRABLE items as it takes leave, each group's replaced by the one item its function answers
 * (at the end). `origin` gives the place, among the items given, of each item sent that was given.
 * When even that is too many (few deferrable items), what is left is sent, and refused as before.
 */
function fitted(all: readonly TransactItem[]): { send: TransactItem[]; origin: number[] } {
  const groups = new Map<Defer, number[]>();
  all.forEach((item, i) => {
    const defer = item[DEFERRABLE];
    if (defer) groups.set(defer, [...(groups.get(defer) ?? []), i]);
  });
  const leaving = new Set<number>();
  const standIns: TransactItem[] = [];
  let size = all.length;
  for (const [defer, places] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
    if (size <= MAX_TRANSACTION_ITEMS) break;
    // One item comes in for those that leave: at least two leave, so the transaction shrinks.
    const moved = places.slice(-Math.min(places.length, size - MAX_TRANSACTION_ITEMS + 1));
    if (moved.length < 2) continue;
    moved.forEach((i) => leaving.add(i));
    standIns.push(defer(moved.map((i) => all[i]!)));
    size += 1 - moved.length;
  }
  const origin = all.flatMap((_, i) => (leaving.has(i) ? [] : [i]));
  return { send: [...origin.map((i) => all[i]!), ...standIns], origin };
}

/** The key of the item an operation of a transaction is on. */
function keyOf(item: TransactItem): { table: string; key: ItemKey } {
  const [, body] = Object.entries(item)[0] as [string, { TableName?: string; Key?: ItemKey; Item?: ItemKey }];
  return { table: body.TableName ?? '', key: body.Key ?? { PK: body.Item?.PK, SK: body.Item?.SK } };
}
const keyText = (table: string, key: ItemKey) => `${table}\u0000${String(key.PK)}\u0000${String(key.SK)}`;

/**
 * The items with a MOVABLE one whose key is taken by an earlier item moved to a free key. Two
 * operations on one item otherwise are sent as they are, and refused by DynamoDB (DynamoDB Local
 * too: "Transaction request cannot include multiple operations on one item").
 */
function onePerItem(items: readonly TransactItem[]): TransactItem[] {
  const taken = new Set<string>();
  return items.map((item) => {
    const { table, key } = keyOf(item);
    const moved = taken.has(keyText(table, key)) ? item[MOVABLE]?.((k) => taken.has(keyText(table, k))) : undefined;
    taken.add(keyText(table, moved ?? key));
    if (!moved) return item;
    const [kind, body] = Object.entries(item)[0] as [string, Record<string, unknown>];
    return { ...item, [kind]: { ...body, Key: moved } };
  });
}

/** Runs the AFTER_WRITE steps of a transaction that is in; one that fails is logged, not thrown. */
async function afterWrite(items: readonly TransactItem[]): Promise<void> {
  const steps = [...new Set(items.flatMap((item) => item[AFTER_WRITE] ?? []))];
  const settled = await Promise.allSettled(steps.map((step) => step()));
  for (const r of settled)
    if (r.status === 'rejected')
      log.warn('a clean-up after a transaction failed; what it leaves is skipped by readers', {
        error: r.reason instanceof Error ? r.reason.message : String(r.reason),
      });
}

/**
 * Read-modify-write with optimistic locking: when another writer changed the item between our
 * read and our write, read again and retry; after three tries, answer 409. By convention item 0 is
 * the versioned write; `readConditions` says which items' conditions are all on what was read
 * (a change that links two items, each conditioned on its read).
 */
export async function retryOnConcurrentChange<T>(
  attempt: () => Promise<T>,
  readConditions: (index: number) => boolean = (index) => index === 0,
): Promise<T> {
  for (let i = 0; i < 3; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof ConditionFailed) || !readConditions(err.index)) throw err;
    }
  }
  throw new ConflictError('The resource was changed by another request at the same time; try again');
}
