/**
 * The local event source mapping against DynamoDB Local's stream, with stand-in handlers: the
 * worker's filter, batches of at most `batchSize`, a batch item failure invoked again from the
 * failed record, a record failing every retry dead-lettered while the shard moves on, a
 * restart that resumes from the saved position (nothing lost, nothing repeated), and a write it
 * is told of read at once rather than at its next turn.
 *
 * Each test filters on an entity of its own, so the run's other writes never reach its handler.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { db, TABLE } from '../../shared/db/client.js';
import {
  startStreamPoller,
  type StreamHandler,
  type StreamPoller,
  type StreamPollerOptions,
} from '../../shared/local/stream-poller.js';
import type { StreamWorker, TableStreamTrigger } from '../../shared/workers.js';
import { PIPELINE_WAIT_MS } from '../support/pipeline.js';

const env = inject('localEnv');
const pollers: StreamPoller[] = [];
afterEach(async () => {
  await Promise.all(pollers.splice(0).map((p) => p.stop()));
});

function probeWorker(entity: string, extra: Partial<TableStreamTrigger> = {}): StreamWorker {
  return {
    id: `probe-${entity}`,
    handler: 'functions/workers/publish-events.ts',
    description: 'test probe',
    trigger: {
      kind: 'table-stream',
      filters: [{ eventNames: ['INSERT'], entities: [entity] }],
      batchSize: 3,
      retryAttempts: 2,
      ...extra,
    },
    grants: {},
    timeoutSeconds: 5,
    memoryMb: 128,
  };
}

async function start(
  worker: StreamWorker,
  handler: StreamHandler,
  extra: Partial<StreamPollerOptions> = {},
): Promise<StreamPoller> {
  const poller = await startStreamPoller({
    region: env.AWS_REGION!,
    endpoint: env.DYNAMODB_ENDPOINT!,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    tableName: env.TABLE_NAME!,
    workers: [worker],
    handlers: { [worker.id]: handler },
    startAt: 'LATEST',
    retryDelayMs: 10,
    log: () => {},
    ...extra,
  });
  pollers.push(poller);
  return poller;
}

/** Puts items of `entity` named n1, n2, ... one by one (so they are in this order in the stream). */
async function putItems(entity: string, names: string[]): Promise<void> {
  for (const name of names) {
    await db.send(new PutCommand({ TableName: TABLE, Item: { PK: `PROBE#${entity}`, SK: name, entity, name } }));
  }
}

const nameOf = (r: DynamoDBRecord) => r.dynamodb?.NewImage?.name?.S ?? '?';

async function waitFor(probe: () => boolean, timeoutMs = PIPELINE_WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * A handler that records each batch's record names and the names it failed (`fail` decides, from
 * the name and how often that record was seen).
 */
function recorder(fail: (name: string, seen: number) => boolean = () => false) {
  const batches: string[][] = [];
  const failed: string[][] = [];
  const seen = new Map<string, number>();
  const handler: StreamHandler = (event: DynamoDBStreamEvent) => {
    batches.push(event.Records.map(nameOf));
    const failures: DynamoDBBatchResponse['batchItemFailures'] = [];
    const names: string[] = [];
    for (const record of event.Records) {
      const name = nameOf(record);
      const count = (seen.get(name) ?? 0) + 1;
      seen.set(name, count);
      if (fail(name, count)) {
        failures.push({ itemIdentifier: record.dynamodb!.SequenceNumber! });
        names.push(name);
      }
    }
    failed.push(names);
    return Promise.resolve({ batchItemFailures: failures });
  };
  return { batches, failed, handler, handled: () => batches.flat() };
}

describe('local stream poller', () => {
  it("passes the filter's records only, batchSize at a time, in order", async () => {
    const entity = `P${randomUUID().slice(0, 8)}`;
    const { batches, handler } = recorder();
    await start(probeWorker(entity), handler);
    await putItems(`${entity}x`, ['other']);
    await putItems(entity, ['a', 'b', 'c', 'd', 'e']);
    await waitFor(() => batches.flat().length >= 5);
    expect(batches.flat()).toEqual(['a', 'b', 'c', 'd', 'e']);
    for (const batch of batches) expect(batch.length).toBeLessThanOrEqual(3);
  });

  it('invokes again from the first failed record until it succeeds', async () => {
    const entity = `P${randomUUID().slice(0, 8)}`;
    // b fails twice, then goes through: within the two retries.
    const { batches, failed, handler } = recorder((name, seen) => name === 'b' && seen <= 2);
    const poller = await start(probeWorker(entity), handler);
    await putItems(entity, ['a', 'b', 'c']);
    await waitFor(() => batches.flat().filter((n) => n === 'b').length === 3 && batches.flat().at(-1) === 'c');
    await new Promise((r) => setTimeout(r, 300));
    // How the records split into reads depends on timing ([a, b, c] or [a], [b, c]...), so the
    // rules rather than the shapes: the batch after one that failed b starts again at b; a is
    // never repeated; c is handled after b went through.
    const flat = batches.flat();
    expect(failed.flat()).toEqual(['b', 'b']);
    failed.forEach((names, i) => {
      if (names.length > 0) expect(batches[i + 1]?.[0]).toBe('b');
    });
    expect(flat.filter((n) => n === 'a')).toEqual(['a']);
    expect(flat.filter((n) => n === 'b')).toHaveLength(3);
    expect(flat.lastIndexOf('c')).toBeGreaterThan(flat.lastIndexOf('b'));
    expect(poller.deadLetters).toEqual([]);
  });

  it('dead-letters a record that fails every retry, and goes on with the next ones', async () => {
    const entity = `P${randomUUID().slice(0, 8)}`;
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-dlq-'));
    try {
      const deadLetterFile = join(dir, 'dead.jsonl');
      const { batches, handler } = recorder((name) => name === 'poison');
      const poller = await start(probeWorker(entity, { batchSize: 2 }), handler, { deadLetterFile });
      await putItems(entity, ['poison', 'after']);
      await putItems(entity, ['later']);
      await waitFor(() => batches.flat().includes('later'));
      // The first try and two retries, then the shard moves on.
      expect(batches.filter((b) => b[0] === 'poison')).toHaveLength(3);
      expect(batches.flat()).toContain('after');
      expect(poller.deadLetters).toHaveLength(1);
      expect(poller.deadLetters[0]).toMatchObject({ worker: `probe-${entity}`, reason: '1 batch item failure(s)' });
      expect(JSON.parse(readFileSync(deadLetterFile, 'utf8'))).toEqual(poller.deadLetters[0]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a handler that throws fails the whole batch, like Lambda', async () => {
    const entity = `P${randomUUID().slice(0, 8)}`;
    let calls = 0;
    const poller = await start(probeWorker(entity, { retryAttempts: 1 }), () => {
      calls++;
      return Promise.reject(new Error('bug'));
    });
    await putItems(entity, ['x']);
    await waitFor(() => poller.deadLetters.length === 1);
    expect(calls).toBe(2);
    expect(poller.deadLetters[0]!.reason).toBe('Error: bug');
  });

  it('resumes after a restart from the saved position: nothing lost, nothing repeated', async () => {
    const entity = `P${randomUUID().slice(0, 8)}`;
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-checkpoint-'));
    try {
      const checkpointFile = join(dir, 'checkpoints.json');
      const first = recorder();
      const poller = await start(probeWorker(entity), first.handler, { checkpointFile });
      await putItems(entity, ['1', '2']);
      await waitFor(() => first.handled().length >= 2);
      await poller.stop();
      // Written while nothing reads the stream.
      await putItems(entity, ['3', '4']);
      const second = recorder();
      await start(probeWorker(entity), second.handler, { checkpointFile, startAt: 'LATEST' });
      await waitFor(() => second.handled().length >= 2);
      await new Promise((r) => setTimeout(r, 300));
      expect(first.handled()).toEqual(['1', '2']);
      expect(second.handled()).toEqual(['3', '4']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads at once when told of a write, however long its pause between empty reads', async () => {
    const entity = `P${randomUUID().slice(0, 8)}`;
    const { handled, handler } = recorder();
    // Ten minutes between empty reads: past its first read, only a wake can make it read again
    // within the wait below.
    const poller = await start(probeWorker(entity), handler, { pollIntervalMs: 600_000, wokenByWrites: true });
    await new Promise((r) => setTimeout(r, 200));
    await putItems(entity, ['1']);
    poller.wake();
    await waitFor(() => handled().length >= 1);
    await putItems(entity, ['2', '3']);
    poller.wake();
    await waitFor(() => handled().length >= 3);
    expect(handled()).toEqual(['1', '2', '3']);
  });
});
