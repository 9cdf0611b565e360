/**
 * Offset paging over a DynamoDB Query. The spec pages by `offset`; DynamoDB pages by key, so a
 * page reads `offset + limit` items in key order and drops the first `offset`. Cost grows with the
 * offset, which is why limits cap it (see docs/data-model.md).
 */
import { QueryCommand, type QueryCommandInput, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './client.js';
import type { IndexName } from './table.js';

export interface PageRequest {
  limit: number;
  offset: number;
}

export interface KeyQuery {
  index?: IndexName;
  /** Partition key value. */
  pk: string;
  /** Only sort keys starting with this. */
  skPrefix?: string;
  /** Only sort keys between these, both included (instead of `skPrefix`). */
  skBetween?: readonly [string, string];
  /** Newest (highest sort key) first when false. */
  ascending?: boolean;
  consistent?: boolean;
  /** Equality filters on other attributes, applied after the key condition (not a scan). */
  filter?: Record<string, unknown>;
}

function keyNames(index?: IndexName) {
  return index ? { pk: `${index}PK`, sk: `${index}SK` } : { pk: 'PK', sk: 'SK' };
}

export async function queryPage(q: KeyQuery, page: PageRequest): Promise<Record<string, unknown>[]> {
  const input = queryInput(q);
  const wanted = page.offset + page.limit;
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db.send(
      new QueryCommand({ ...input, Limit: Math.min(wanted - items.length, 1000), ExclusiveStartKey: startKey }),
    );
    items.push(...(out.Items ?? []));
    startKey = out.LastEvaluatedKey;
  } while (startKey && items.length < wanted);
  return items.slice(page.offset, wanted);
}

/**
 * How many items the query matches (after its filters), without returning them: DynamoDB still
 * reads every item in the key range, so the cost follows the range, not the count.
 */
export async function queryCount(q: KeyQuery): Promise<number> {
  let count = 0;
  await forEachPage({ ...queryInput(q), Select: 'COUNT' }, (page) => {
    count += page.Count ?? 0;
  });
  return count;
}

function queryInput(q: KeyQuery): QueryCommandInput {
  const names = keyNames(q.index);
  const attributeNames: Record<string, string> = { '#pk': names.pk };
  const values: Record<string, unknown> = { ':pk': q.pk };
  if (q.skPrefix) {
    attributeNames['#sk'] = names.sk;
    values[':sk'] = q.skPrefix;
  } else if (q.skBetween) {
    attributeNames['#sk'] = names.sk;
    values[':lo'] = q.skBetween[0];
    values[':hi'] = q.skBetween[1];
  }
  const filters = Object.entries(q.filter ?? {}).filter(([, v]) => v !== undefined);
  filters.forEach(([field, value], i) => {
    attributeNames[`#f${i}`] = field;
    values[`:f${i}`] = value;
  });
  const input: QueryCommandInput = {
    TableName: TABLE,
    IndexName: q.index,
    KeyConditionExpression: q.skPrefix
      ? '#pk = :pk AND begins_with(#sk, :sk)'
      : q.skBetween
        ? '#pk = :pk AND #sk BETWEEN :lo AND :hi'
        : '#pk = :pk',
    FilterExpression: filters.length > 0 ? filters.map((_, i) => `#f${i} = :f${i}`).join(' AND ') : undefined,
    ExpressionAttributeNames: attributeNames,
    ExpressionAttributeValues: values,
    ScanIndexForward: q.ascending ?? true,
    ConsistentRead: q.index ? undefined : q.consistent,
  };
  return input;
}

/** Runs a query to its end, handing each page to `onPage` in order. */
export async function forEachPage(
  input: QueryCommandInput,
  onPage: (page: QueryCommandOutput) => Promise<void> | void,
): Promise<void> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await db.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    await onPage(out);
    startKey = out.LastEvaluatedKey;
  } while (startKey);
}
