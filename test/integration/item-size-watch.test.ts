/**
 * The proxy behind the test run's item-size check (test/support/item-size-check.ts), against a
 * DynamoDB Local of its own (the shared stack's would carry the big item into the run's own check):
 * an update's item is measured as DynamoDB holds it after the update, whatever the caller asked to
 * be returned, and an item over 64 KB is named. It also tells of each write DynamoDB Local
 * accepted (the local stream poller reads on it), and of nothing else. An update is measured from
 * DynamoDB's own answer, not a second call, and its caller still gets only what it asked for. A
 * client whose reads go past it (shared/local/dynamodb-reads.ts) still sends it every write.
 */
import {
  CreateTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynamoDbLocal } from '../../shared/local/dynamodb-local.js';
import { startDynamoDbMeter, type DynamoDbMeter } from '../../shared/local/dynamodb-meter.js';
import { sendReadsTo } from '../../shared/local/dynamodb-reads.js';
import { bareTableInput } from '../../shared/local/provision.js';
import { itemSizeReport, judgeItemSizes } from '../support/item-size-check.js';

describe('item-size check', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-item-sizes-'));
  let dynamodb: Awaited<ReturnType<typeof startDynamoDbLocal>>;
  let meter: DynamoDbMeter;
  let client: DynamoDBClient;

  beforeAll(async () => {
    dynamodb = await startDynamoDbLocal({ logFile: join(dir, 'ddb.log') });
    meter = await startDynamoDbMeter(dynamodb.endpoint, { count: false });
    client = new DynamoDBClient({
      region: 'us-east-1',
      endpoint: meter.url,
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    });
    await client.send(new CreateTableCommand(bareTableInput('items')));
  });
  afterAll(async () => {
    client?.destroy();
    await meter?.close();
    await dynamodb?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('measures an updated item as stored, and names the one over 64 KB', async () => {
    const key = { PK: { S: 'T#a#INC#1' }, SK: { S: 'INCIDENT' } };
    await client.send(new PutItemCommand({ TableName: 'items', Item: { ...key, entity: { S: 'INCIDENT' } } }));
    // Grown past 64 KB by two updates, neither of which returns the item.
    for (const part of ['a', 'b'])
      await client.send(
        new UpdateItemCommand({
          TableName: 'items',
          Key: key,
          UpdateExpression: `SET #${part} = :v`,
          ExpressionAttributeNames: { [`#${part}`]: `history_${part}` },
          ExpressionAttributeValues: { ':v': { S: part.repeat(40_000) } },
        }),
      );
    await meter.settle();

    const verdict = judgeItemSizes(itemSizeReport(meter.sizes));

    expect(verdict.ok).toBe(false);
    expect(meter.sizes.largest()).toMatchObject({ entity: 'INCIDENT', key: 'T#a#INC#1 INCIDENT' });
    expect(meter.sizes.largest()!.bytes).toBeGreaterThan(80_000);
    expect(verdict.message).toMatch(/INCIDENT \(T#a#INC#1 INCIDENT\): 80,\d{3} bytes/);
  });

  it('tells of each write DynamoDB Local accepted, not of reads or refused writes', async () => {
    let told = 0;
    meter.onWrite(() => (told += 1));
    const key = { PK: { S: 'T#a#SITE#1' }, SK: { S: 'SITE' } };
    await client.send(new PutItemCommand({ TableName: 'items', Item: { ...key, name: { S: 'Quay' } } }));
    await client.send(new GetItemCommand({ TableName: 'items', Key: key }));
    const refused = client.send(
      new PutItemCommand({
        TableName: 'items',
        Item: { ...key, name: { S: 'Pier' } },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
    await expect(refused).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    await client.send(
      new UpdateItemCommand({
        TableName: 'items',
        Key: key,
        UpdateExpression: 'SET #n = :n',
        ExpressionAttributeNames: { '#n': 'name' },
        ExpressionAttributeValues: { ':n': { S: 'Wharf' } },
      }),
    );
    await meter.settle();

    expect(told).toBe(2);
  });

  it("answers an update as its caller asked, and measures it from DynamoDB's answer, not a read", async () => {
    // What reaches DynamoDB Local from a second meter: a counting hop between the two.
    const { url: hopUrl, sent, close: closeHop } = await countingHop(dynamodb.endpoint);
    const counted = await startDynamoDbMeter(hopUrl, { count: false });
    const via = new DynamoDBClient({
      region: 'us-east-1',
      endpoint: counted.url,
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    });
    try {
      const key = { PK: { S: 'T#a#ZONE#1' }, SK: { S: 'ZONE' } };
      await via.send(new PutItemCommand({ TableName: 'items', Item: { ...key, name: { S: 'Quay' } } }));
      const update = (value: string, ReturnValues?: 'UPDATED_OLD') =>
        via.send(
          new UpdateItemCommand({
            TableName: 'items',
            Key: key,
            UpdateExpression: 'SET #n = :n, notes = :notes',
            ExpressionAttributeNames: { '#n': 'name' },
            ExpressionAttributeValues: { ':n': { S: value }, ':notes': { S: 'x'.repeat(2_000) } },
            ReturnValues,
          }),
        );
      const quiet = await update('Pier');
      const old = await update('Wharf', 'UPDATED_OLD');
      await counted.settle();

      // Nothing back when nothing was asked for; the old values when they were.
      expect(quiet.Attributes).toBeUndefined();
      expect(old.Attributes).toEqual({ name: { S: 'Pier' }, notes: { S: 'x'.repeat(2_000) } });
      // The first update was measured from its own answer; the second asked for something else,
      // so the proxy read the item back.
      expect(sent).toEqual(['PutItem', 'UpdateItem', 'UpdateItem', 'GetItem']);
      expect(counted.sizes.largest()).toMatchObject({ key: 'T#a#ZONE#1 ZONE' });
      expect(counted.sizes.largest()!.bytes).toBeGreaterThan(2_000);
    } finally {
      via.destroy();
      await counted.close();
      await closeHop();
    }
  });

  it('a client sending its reads past the front: the front sees every write and no read, and a read sees the write before it', async () => {
    // The front's place, counting what reaches it (the test run's is the meter above).
    const front = await countingHop(dynamodb.endpoint);
    const low = new DynamoDBClient({
      region: 'us-east-1',
      endpoint: front.url,
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
    });
    sendReadsTo(low, dynamodb.endpoint);
    // The service's calls go through the document client, on the same middleware stack.
    const doc = DynamoDBDocumentClient.from(low);
    try {
      const key = { PK: 'T#a#ASSET#1', SK: 'ASSET' };
      await doc.send(new PutCommand({ TableName: 'items', Item: { ...key, name: 'Crane' } }));
      expect((await doc.send(new GetCommand({ TableName: 'items', Key: key }))).Item?.name).toBe('Crane');
      await doc.send(
        new UpdateCommand({
          TableName: 'items',
          Key: key,
          UpdateExpression: 'SET #n = :n',
          ExpressionAttributeNames: { '#n': 'name' },
          ExpressionAttributeValues: { ':n': 'Gantry' },
        }),
      );
      const listed = await doc.send(
        new QueryCommand({
          TableName: 'items',
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': key.PK },
        }),
      );
      expect(listed.Items?.map((i) => i.name)).toEqual(['Gantry']);
      await doc.send(new TransactWriteCommand({ TransactItems: [{ Delete: { TableName: 'items', Key: key } }] }));
      const gone = await doc.send(new BatchGetCommand({ RequestItems: { items: { Keys: [key] } } }));
      expect(gone.Responses?.items).toEqual([]);

      expect(front.sent).toEqual(['PutItem', 'UpdateItem', 'TransactWriteItems']);
    } finally {
      low.destroy();
      await front.close();
    }
  });
});

/** A plain HTTP hop to `upstream` that records the operation of each call passing it. */
async function countingHop(upstream: string): Promise<{ url: string; sent: string[]; close: () => Promise<void> }> {
  const target = new URL(upstream);
  const sent: string[] = [];
  const hop: Server = createServer((req, res) => {
    sent.push(String(req.headers['x-amz-target']).split('.')[1] ?? '');
    const forward = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => hop.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(hop.address() as AddressInfo).port}`,
    sent,
    close: () => new Promise<void>((resolve) => hop.close(() => resolve())),
  };
}
