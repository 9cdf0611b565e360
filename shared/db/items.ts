/**
 * Building blocks for entity items: a versioned partial update that leaves every attribute it
 * does not name alone (counters kept by other writes survive), and the key-less view of an item.
 */
import type { TransactItem } from './transact.js';
import { TABLE } from './client.js';

type Key = { PK: string; SK: string };

/**
 * SET each field of `fields` (REMOVE when undefined is not used: pass null to clear), bump
 * `version`, only if the item exists at `expectedVersion`.
 */
export function versionedUpdate(key: Key, fields: Record<string, unknown>, expectedVersion: number): TransactItem {
  const names: Record<string, string> = { '#version': 'version' };
  const values: Record<string, unknown> = { ':expected': expectedVersion, ':one': 1 };
  const sets: string[] = [];
  Object.entries(fields).forEach(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:v${i}`] = value;
    sets.push(`#f${i} = :v${i}`);
  });
  return {
    Update: {
      TableName: TABLE,
      Key: key,
      UpdateExpression: `SET ${[...sets, '#version = #version + :one'].join(', ')}`,
      ConditionExpression: 'attribute_exists(PK) AND #version = :expected',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** A put that fails when the item exists. */
export function putNew(item: Record<string, unknown>): TransactItem {
  return { Put: { TableName: TABLE, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } };
}

/** A delete that fails unless the item exists at `expectedVersion`. */
export function versionedDelete(key: Key, expectedVersion: number): TransactItem {
  return {
    Delete: {
      TableName: TABLE,
      Key: key,
      ConditionExpression: 'attribute_exists(PK) AND #version = :expected',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':expected': expectedVersion },
    },
  };
}

/** Picks the public fields of an item, null for those absent. */
export function pick<T>(item: Record<string, unknown>, fields: readonly string[]): T {
  return Object.fromEntries(fields.map((f) => [f, item[f] ?? null])) as T;
}
