/**
 * What one DynamoDB call costs the test run's machine: a script that prints figures, not a test.
 *
 *   npx tsx bin/bench-dynamodb-local.ts
 *
 * Starts DynamoDB Local as every local stack does (the JVM's quick compiler only, in memory), creates
 * the service's table (its five GSIs and its stream: shared/local/provision.ts), and makes
 * BENCH_CALLS (default 3,000) PutItem, GetItem and Query calls of 1 KB items one after another,
 * in rounds (the first warms the JIT). For each kind it prints the CPU milliseconds a call cost
 * DynamoDB Local's JVM and this process (the AWS SDK's client), sent straight to DynamoDB Local and
 * through the item-size check's front (test/support/item-size-check.ts: the metering proxy with
 * `count: false`), whose extra cost is what shared/local/dynamodb-reads.ts saves on each read.
 * Then the same calls on a table with no index and no stream, for what those add.
 */
import {
  CreateTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
} from '@aws-sdk/client-dynamodb';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDynamoDbLocal } from '../shared/local/dynamodb-local.js';
import { startDynamoDbMeter } from '../shared/local/dynamodb-meter.js';
import { bareTableInput, ensureTable } from '../shared/local/provision.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 3000);
const ROUNDS = 3;

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-ddb-'));
const dynamodb = await startDynamoDbLocal({ logFile: join(dir, 'dynamodb.log') });
const meter = await startDynamoDbMeter(dynamodb.endpoint, { count: false });

/** CPU seconds the JVM has used (utime + stime of /proc/<pid>/stat, in clock ticks of 10 ms). */
function jvmCpuMs(): number {
  const fields = readFileSync(`/proc/${dynamodb.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const client = (endpoint: string) =>
  new DynamoDBClient({
    region: 'us-east-1',
    endpoint,
    credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' },
  });
const direct = client(dynamodb.endpoint);
const fronted = client(meter.url);

await ensureTable(direct, 'bench');
await direct.send(new CreateTableCommand(bareTableInput('bench-plain')));

type Kind = 'PutItem' | 'GetItem' | 'Query';
const payload = 'x'.repeat(1000);
let written = 0;

/** Sends call `i` of `kind` through `via`. */
function send(via: DynamoDBClient, kind: Kind, table: string, i: number): Promise<unknown> {
  const pk = { S: `T#bench-${i % 50}` };
  if (kind === 'PutItem')
    return via.send(
      new PutItemCommand({
        TableName: table,
        Item: {
          PK: pk,
          SK: { S: `EVENT#${written + i}` },
          GSI1PK: { S: `E#${i % 7}` },
          GSI1SK: { S: `${i}` },
          payload: { S: payload },
        },
      }),
    );
  if (kind === 'GetItem')
    return via.send(new GetItemCommand({ TableName: table, Key: { PK: pk, SK: { S: `EVENT#${i}` } } }));
  return via.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      Limit: 10,
    }),
  );
}

async function measure(kind: Kind, via: DynamoDBClient, table: string): Promise<{ jvm: number; sdk: number }> {
  const [jvm0, own0] = [jvmCpuMs(), ownCpuMs()];
  for (let i = 0; i < CALLS; i++) await send(via, kind, table, i);
  if (kind === 'PutItem') written += CALLS;
  return { jvm: (jvmCpuMs() - jvm0) / CALLS, sdk: (ownCpuMs() - own0) / CALLS };
}

const rows: string[] = [];
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const kind of ['PutItem', 'GetItem', 'Query'] as const) {
      const straight = await measure(kind, direct, 'bench');
      const through = await measure(kind, fronted, 'bench');
      const plain = await measure(kind, direct, 'bench-plain');
      if (round === ROUNDS)
        rows.push(
          `| ${kind} | ${straight.jvm.toFixed(2)} | ${straight.sdk.toFixed(2)} | ${through.sdk.toFixed(2)} | ${plain.jvm.toFixed(2)} |`,
        );
    }
  }
  console.log(`${CALLS.toLocaleString('en')} calls of each kind, round ${ROUNDS} of ${ROUNDS} (CPU ms a call):\n`);
  console.log('| Call | DynamoDB Local | SDK, straight | SDK and front | DynamoDB Local, no index or stream |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
} finally {
  direct.destroy();
  fronted.destroy();
  await meter.close();
  await dynamodb.stop();
  rmSync(dir, { recursive: true, force: true });
}
