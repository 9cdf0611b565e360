/**
 * The one way a worker answers a batch with partial failures (shared/worker-handler.ts, Powertools'
 * BatchProcessor): a queue's message or a stream's record whose work fails is named in
 * `batchItemFailures`, the others are done; a failed message is hidden for its backoff (or the
 * delay its work asks); a stream's failures come in record order; a batch that fails whole is
 * answered, not thrown (the local stand-ins and the heartbeat read the answer).
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backoffSeconds, queues, useQueues, type Queues } from '../../shared/adapters/queue.js';
import { backoffOn, RetryAfter } from '../../shared/adapters/queue-retry.js';
import { queueBatch, queueBatchOf, streamBatch, type StreamItem } from '../../shared/worker-handler.js';
import type { TableStreamTrigger } from '../../shared/workers.js';

const message = (id: string, receiveCount = 1): SQSRecord =>
  ({
    messageId: id,
    receiptHandle: `receipt-${id}`,
    body: JSON.stringify({ id }),
    attributes: { ApproximateReceiveCount: String(receiveCount), SentTimestamp: String(Date.now()) },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:probe',
    awsRegion: 'us-east-1',
  }) as unknown as SQSRecord;

const sqsEvent = (...records: SQSRecord[]): SQSEvent => ({ Records: records });

let hidden: { queue: string; receipt: string; seconds: number }[];
let before: Queues;
beforeEach(() => {
  hidden = [];
  before = queues();
  useQueues({
    send: () => Promise.resolve(),
    depth: () => Promise.resolve({ visible: 0, in_flight: 0, dead_letters: 0 }),
    changeVisibility: (queue, receipt, seconds) => {
      hidden.push({ queue, receipt, seconds });
      return Promise.resolve();
    },
  });
});
afterEach(() => useQueues(before));

describe('a queue batch', () => {
  it('reports the one message whose work failed, processes the others, and hides the failed one for its backoff', async () => {
    const done: string[] = [];
    const answer = await queueBatch(
      sqsEvent(message('a'), message('b', 3), message('c')),
      async (record) => {
        if (record.messageId === 'b') throw new Error('the table throttled');
        done.push(record.messageId);
      },
      { hide: backoffOn('notifications') },
    );
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'b' }] });
    expect(done).toEqual(['a', 'c']);
    expect(hidden).toEqual([{ queue: 'notifications', receipt: 'receipt-b', seconds: backoffSeconds(3) }]);
  });

  it('hides a message whose work asks for a delay (RetryAfter) for that delay', async () => {
    const answer = await queueBatch(
      sqsEvent(message('a'), message('b')),
      async (record) => {
        if (record.messageId === 'a') throw new RetryAfter(300);
      },
      { hide: backoffOn('webhook-deliveries'), parallel: true },
    );
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'a' }] });
    expect(hidden).toEqual([{ queue: 'webhook-deliveries', receipt: 'receipt-a', seconds: 300 }]);
  });

  it('answers a batch whose every message failed, instead of throwing; without a backoff nothing is hidden', async () => {
    const answer = await queueBatch(sqsEvent(message('a'), message('b')), () => Promise.reject(new Error('down')), {});
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'a' }, { itemIdentifier: 'b' }] });
    expect(hidden).toEqual([]);
  });

  it("a batch's work done at once reports the messages it answers as failed, and only those", async () => {
    const seen: { id: string; body: string }[] = [];
    const answer = await queueBatchOf(
      sqsEvent(message('a'), message('b'), message('c')),
      async (messages) => {
        seen.push(...messages.map((m) => ({ id: m.id, body: m.body })));
        return new Map(messages.filter((m) => m.id === 'c').map((m) => [m.key, new Error('file not written')]));
      },
      { hide: backoffOn('data-lake'), parallel: true },
    );
    expect(seen.map((m) => m.id)).toEqual(['a', 'b', 'c']);
    expect(seen[0]!.body).toBe(JSON.stringify({ id: 'a' }));
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'c' }] });
    expect(hidden).toEqual([{ queue: 'data-lake', receipt: 'receipt-c', seconds: backoffSeconds(1) }]);
  });
});

describe('a stream batch', () => {
  const trigger: TableStreamTrigger = {
    kind: 'table-stream',
    filters: [{ eventNames: ['INSERT'], entities: ['EVENT'] }],
    batchSize: 100,
    retryAttempts: 1,
  };
  const record = (
    seq: number,
    item: Record<string, unknown>,
    eventName: DynamoDBRecord['eventName'] = 'INSERT',
  ): DynamoDBRecord => ({
    eventName,
    dynamodb: {
      SequenceNumber: String(seq),
      NewImage: marshall(item) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'],
    },
  });

  it('hands the work the records its trigger passes, read and in order, and reports the one that failed', async () => {
    const got: StreamItem[] = [];
    const records = [
      record(1, { entity: 'EVENT', n: 1 }),
      record(2, { entity: 'OUTBOX', n: 2 }),
      record(3, { entity: 'EVENT', n: 3 }, 'MODIFY'),
      record(4, { entity: 'EVENT', n: 4 }),
      record(5, { entity: 'EVENT', n: 5 }),
    ];
    const answer = await streamBatch(
      records,
      async (items) => {
        got.push(...items);
        return new Map([['4', 'not counted']]);
      },
      trigger,
    );
    expect(got).toEqual([
      { id: '1', eventName: 'INSERT', item: { entity: 'EVENT', n: 1 } },
      { id: '4', eventName: 'INSERT', item: { entity: 'EVENT', n: 4 } },
      { id: '5', eventName: 'INSERT', item: { entity: 'EVENT', n: 5 } },
    ]);
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: '4' }] });
  });

  it('reports a record it cannot read, and the failures in record order whatever order the work answers', async () => {
    const unreadable: DynamoDBRecord = {
      eventName: 'INSERT',
      dynamodb: { SequenceNumber: '2', NewImage: { entity: { S: 'EVENT' }, x: { Q: 'no such type' } as never } },
    };
    const records = [
      record(1, { entity: 'EVENT' }),
      unreadable,
      record(3, { entity: 'EVENT' }),
      record(4, { entity: 'EVENT' }),
    ];
    let handed: string[] = [];
    const answer = await streamBatch(
      records,
      async (items) => {
        handed = items.map((i) => i.id);
        return new Map([
          ['4', 'a'],
          ['1', 'b'],
        ]);
      },
      trigger,
    );
    expect(handed).toEqual(['1', '3', '4']);
    expect(answer).toEqual({
      batchItemFailures: [{ itemIdentifier: '1' }, { itemIdentifier: '2' }, { itemIdentifier: '4' }],
    });
  });

  it('without a trigger, hands the work every record that has a new image (the domain passes over what is not its own)', async () => {
    const records = [
      record(1, { entity: 'EVENT' }),
      record(2, { entity: 'OUTBOX' }),
      { eventName: 'REMOVE', dynamodb: { SequenceNumber: '3' } } as DynamoDBRecord,
    ];
    let handed: string[] = [];
    const answer = await streamBatch(records, async (items) => {
      handed = items.map((i) => i.id);
      return new Map();
    });
    expect(handed).toEqual(['1', '2']);
    expect(answer).toEqual({ batchItemFailures: [] });
  });

  it('answers a batch whose every record failed, instead of throwing', async () => {
    const records = [record(1, { entity: 'EVENT' }), record(2, { entity: 'EVENT' })];
    const answer = await streamBatch(records, async (items) => new Map(items.map((i) => [i.id, 'down'])), trigger);
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: '1' }, { itemIdentifier: '2' }] });
  });
});
