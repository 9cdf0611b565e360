/**
 * The counts of a tenant's incident list (pattern 28c): per scope a count in a few shards, moved by
 * `ADD n` when an incident joins or leaves the scope, in that change's transaction.
 *
 * A change that joins or leaves many scopes (an incident opened in, or linked to an event matching,
 * many zones) would hold more than DynamoDB's 100 items in its transaction: the counts that do not
 * fit leave it (transact.ts `DEFERRABLE`), and one "pending counts" item of the incident's version
 * (pattern 28e) holding their scopes and deltas takes their place. Once the transaction is in, they
 * are applied in chunks (AFTER_WRITE), each chunk a transaction that ADDs its counts and removes
 * their scopes from the pending item on condition they are still there, the last deleting it: a
 * chunk tried again applies nothing twice. If that step fails, the stream worker `count-analytics`
 * applies what is left of the item it sees inserted, the same way. A change holds at most about
 * 8,000 deferred scopes: the pending item is one item (400 KB), about 45 bytes a scope.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import * as keys from './item-keys.js';
import {
  AFTER_WRITE,
  ConditionFailed,
  DEFERRABLE,
  MAX_TRANSACTION_ITEMS,
  MOVABLE,
  transactWrite,
  type Defer,
  type TransactItem,
} from './transact.js';

/** The count of a scope is kept in this many items, by the incident id: concurrent writes rarely meet. */
export const COUNT_SHARDS = 4;

/** The entity of a pending counts item: the stream worker applies those it sees inserted. */
export const PENDING_COUNTS_ENTITY = 'INCIDENT_LIST_COUNTS';

/** Counts one chunk applies: with the pending item, a transaction of 96 items. */
const CHUNK = MAX_TRANSACTION_ITEMS - 5;

const shardOf = (incidentId: string) => parseInt(incidentId.slice(-1), 16) % COUNT_SHARDS || 0;

/**
 * A scope's count moved by `n`, in the incident's shard; in another when the transaction holds an
 * operation on that one already (another incident of the shard joining or leaving the scope in it):
 * a count is the sum of its shards, so any shard counts the same.
 */
const countAdd = (tenantId: string, scope: string, incidentId: string, n: number): TransactItem => ({
  Update: {
    TableName: TABLE,
    Key: keys.incidentListCount(tenantId, scope, shardOf(incidentId)),
    UpdateExpression: 'ADD n :n',
    ExpressionAttributeValues: { ':n': n },
  },
  [MOVABLE]: (taken) =>
    Array.from({ length: COUNT_SHARDS }, (_, shard) => keys.incidentListCount(tenantId, scope, shard)).find(
      (key) => !taken(key),
    ),
});

/**
 * The count updates of an incident's change (its `version`) that joins `joined` and leaves `left`:
 * one item each, in its transaction; those the transaction cannot hold are deferred to a pending
 * item of the version, applied once it is in.
 */
export function countChanges(
  tenantId: string,
  incidentId: string,
  version: number,
  joined: readonly string[],
  left: readonly string[],
): TransactItem[] {
  const deltas = new Map<TransactItem, [string, number]>();
  const defer: Defer = (deferred) => ({
    Put: {
      TableName: TABLE,
      Item: {
        ...keys.incidentListPendingCounts(tenantId, incidentId, version),
        entity: PENDING_COUNTS_ENTITY,
        tenant_id: tenantId,
        incident_id: incidentId,
        version,
        d: Object.fromEntries(deferred.map((item) => deltas.get(item)!)),
      },
    },
    [AFTER_WRITE]: () => applyPendingCounts(tenantId, incidentId, version),
  });
  const item = (scope: string, n: number): TransactItem => {
    const update: TransactItem = { ...countAdd(tenantId, scope, incidentId, n), [DEFERRABLE]: defer };
    deltas.set(update, [scope, n]);
    return update;
  };
  return [...joined.map((s) => item(s, 1)), ...left.map((s) => item(s, -1))];
}

/**
 * Applies what is left of an incident version's pending counts, chunk by chunk, and deletes the
 * item; nothing when it is gone (applied already). Each chunk is conditioned on its scopes still
 * being pending, so running this twice, or twice at once, applies each delta once.
 */
export async function applyPendingCounts(tenantId: string, incidentId: string, version: number): Promise<void> {
  const key = keys.incidentListPendingCounts(tenantId, incidentId, version);
  // Each try applies a chunk or finds another writer applied it: a bound for a loop that cannot stop.
  for (let tries = 0; tries < 1_000; tries++) {
    const out = await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }));
    if (!out.Item) return;
    const pending = Object.entries((out.Item.d ?? {}) as Record<string, number>);
    const chunk = pending.slice(0, CHUNK);
    const names: Record<string, string> = {
      '#d': 'd',
      ...Object.fromEntries(chunk.map(([scope], i) => [`#s${i}`, scope])),
    };
    const stillPending = chunk.map((_, i) => `attribute_exists(#d.#s${i})`).join(' AND ');
    const done: TransactItem =
      chunk.length === pending.length
        ? {
            Delete: {
              TableName: TABLE,
              Key: key,
              ...(chunk.length > 0 ? { ConditionExpression: stillPending, ExpressionAttributeNames: names } : {}),
            },
          }
        : {
            Update: {
              TableName: TABLE,
              Key: key,
              UpdateExpression: `REMOVE ${chunk.map((_, i) => `#d.#s${i}`).join(', ')}`,
              ConditionExpression: stillPending,
              ExpressionAttributeNames: names,
            },
          };
    try {
      await transactWrite([...chunk.map(([scope, n]) => countAdd(tenantId, scope, incidentId, n)), done]);
    } catch (err) {
      // Another run applied some of these meanwhile: read what is left.
      if (!(err instanceof ConditionFailed)) throw err;
      continue;
    }
    if (chunk.length === pending.length) return;
  }
  throw new Error(`the pending list counts of incident ${incidentId} (version ${version}) kept changing`);
}

/** How many incidents a scope lists: one Query of its count's shards. */
export async function countOf(tenantId: string, scope: string): Promise<number> {
  const { PK } = keys.incidentListCount(tenantId, scope, 0);
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
      ExpressionAttributeValues: { ':pk': PK, ':sk': `${scope}#` },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).reduce((sum, i) => sum + Number(i.n ?? 0), 0);
}
