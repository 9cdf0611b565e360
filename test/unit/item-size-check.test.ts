/**
 * The test run's item-size check (test/support/item-size-check.ts): the sizes the proxy keeps of the
 * items written, and the verdict the run's teardown enforces (issue 39: no item over 64 KB, the
 * largest named).
 */
import { describe, expect, it } from 'vitest';
import { crc32 } from 'node:zlib';
import {
  askedForItem,
  itemSize,
  withoutItem,
  writeTargets,
  writtenBy,
  WrittenSizes,
} from '../../shared/local/dynamodb-meter.js';
import { itemSizeReport, judgeItemSizes } from '../support/item-size-check.js';

const item = (pk: string, sk: string, entity: string, text: string) => ({
  PK: { S: pk },
  SK: { S: sk },
  entity: { S: entity },
  text: { S: text },
});

/** Records what each write's request stored, as the proxy does for a successful write. */
function record(sizes: WrittenSizes, operation: string, input: Record<string, unknown>) {
  for (const i of writtenBy(operation, input).items) sizes.record(i);
}

describe('item-size check', () => {
  it('reports an item over 64 KB, by entity, key and size, and fails the run', () => {
    const sizes = new WrittenSizes();
    const small = item('T#a#EVENT', 'E#1', 'EVENT', 'x'.repeat(500));
    const big = item('T#a#INCIDENT#9', 'META', 'INCIDENT', 'y'.repeat(70_000));
    record(sizes, 'PutItem', { TableName: 't', Item: small });
    record(sizes, 'TransactWriteItems', {
      TransactItems: [{ Put: { TableName: 't', Item: big } }, { Update: { TableName: 't', Key: small } }],
    });

    const verdict = judgeItemSizes(itemSizeReport(sizes));

    expect(verdict.ok).toBe(false);
    expect(verdict.message).toContain(`INCIDENT (T#a#INCIDENT#9 META): ${itemSize(big).toLocaleString('en')} bytes`);
    expect(verdict.message).toMatch(/items over 65,536 bytes/);
  });

  it('names the largest item when none is over 64 KB, from batches too', () => {
    const sizes = new WrittenSizes();
    const events = Array.from({ length: 3 }, (_, i) => item('T#a#EVENT', `E#${i}`, 'EVENT', 'z'.repeat(100 * (i + 1))));
    record(sizes, 'BatchWriteItem', { RequestItems: { t: events.map((Item) => ({ PutRequest: { Item } })) } });

    const verdict = judgeItemSizes(itemSizeReport(sizes));

    expect(verdict.ok).toBe(true);
    expect(verdict.message).toContain(
      `the largest: EVENT (T#a#EVENT E#2): ${itemSize(events[2]).toLocaleString('en')} bytes`,
    );
    expect(sizes.of('EVENT')).toEqual(events.map((e) => itemSize(e)));
  });

  it('leaves an update to be read back: its request does not hold the item', () => {
    const key = { PK: { S: 'T#a#INCIDENT#9' }, SK: { S: 'META' } };
    expect(writtenBy('UpdateItem', { TableName: 't', Key: key, UpdateExpression: 'SET a = :a' })).toEqual({
      items: [],
      updated: [key],
    });
  });

  it('asks DynamoDB for an updated item only when the caller asked for nothing', () => {
    const update = { TableName: 't', Key: { PK: { S: 'a' }, SK: { S: 'b' } }, UpdateExpression: 'SET a = :a' };
    expect(askedForItem('UpdateItem', update)).toEqual({ ...update, ReturnValues: 'ALL_NEW' });
    expect(askedForItem('UpdateItem', { ...update, ReturnValues: 'NONE' })).toEqual({
      ...update,
      ReturnValues: 'ALL_NEW',
    });
    // The caller's own ask is left alone (the item is then read back), and so is any other write.
    expect(askedForItem('UpdateItem', { ...update, ReturnValues: 'UPDATED_OLD' })).toBeUndefined();
    expect(askedForItem('PutItem', { TableName: 't', Item: update.Key })).toBeUndefined();
    expect(askedForItem('TransactWriteItems', { TransactItems: [{ Update: update }] })).toBeUndefined();
  });

  it("takes the item out of DynamoDB's answer, with its length and checksum made anew", () => {
    const answer = Buffer.from(
      JSON.stringify({ Attributes: { PK: { S: 'a' }, n: { N: '1' } }, ConsumedCapacity: { CapacityUnits: 1 } }),
    );
    const out = withoutItem({
      status: 200,
      headers: { 'x-amz-crc32': String(crc32(answer)), 'transfer-encoding': 'chunked', 'x-amzn-requestid': 'r1' },
      body: answer,
    });
    expect(out.item).toEqual({ PK: { S: 'a' }, n: { N: '1' } });
    expect(JSON.parse(out.body.toString())).toEqual({ ConsumedCapacity: { CapacityUnits: 1 } });
    expect(out.headers).toEqual({
      'x-amz-crc32': String(crc32(out.body)),
      'content-length': String(out.body.length),
      'x-amzn-requestid': 'r1',
    });
  });
});

describe('the items a write names (the proxy numbers writes by their partitions with it)', () => {
  const key = (pk: string, sk: string) => ({ PK: { S: pk }, SK: { S: sk } });
  const named = (operation: string, input: Record<string, unknown>) =>
    writeTargets(operation, input).map((t) => [t.table, t.key.PK!.S, t.key.SK!.S, t.change, t.transactional]);

  it('names puts, updates and deletes, alone, in a batch and in a transaction, but not a condition check', () => {
    expect(named('PutItem', { TableName: 't', Item: item('T#a', 'USER#1', 'USER', 'x') })).toEqual([
      ['t', 'T#a', 'USER#1', 'put', false],
    ]);
    expect(named('DeleteItem', { TableName: 't', Key: key('T#a#AUDIT', 'A#1') })).toEqual([
      ['t', 'T#a#AUDIT', 'A#1', 'delete', false],
    ]);
    expect(
      named('BatchWriteItem', {
        RequestItems: {
          t: [
            { PutRequest: { Item: item('T#b#EVENT', 'E#1', 'EVENT', 'x') } },
            { DeleteRequest: { Key: key('T#a', 'K#1') } },
          ],
        },
      }),
    ).toEqual([
      ['t', 'T#b#EVENT', 'E#1', 'put', false],
      ['t', 'T#a', 'K#1', 'delete', false],
    ]);
    expect(
      named('TransactWriteItems', {
        TransactItems: [
          { ConditionCheck: { TableName: 't', Key: key('T#a', 'TENANT') } },
          { Update: { TableName: 't', Key: key('T#b', 'CONFIG') } },
          { Delete: { TableName: 't', Key: key('T#a', 'KEY#2') } },
        ],
      }),
    ).toEqual([
      ['t', 'T#b', 'CONFIG', 'update', true],
      ['t', 'T#a', 'KEY#2', 'delete', true],
    ]);
    expect(named('GetItem', { TableName: 't', Key: key('T#a', 'TENANT') })).toEqual([]);
  });
});
