/**
 * The local event source mapping: reads the table's stream on DynamoDB Local (DescribeStream,
 * GetShardIterator, GetRecords) every ~250 ms and invokes each table-stream worker of
 * shared/workers.ts with a DynamoDBStreamEvent, as Lambda does in AWS:
 *
 * - the worker's filter (`streamFilterPatterns`, the very patterns the CDK event source mapping gets
 *   as its filter criteria) is applied first; records it drops are passed over;
 * - at most `batchSize` records per invocation, in shard order, parent shards before children;
 * - batch item failures (ReportBatchItemFailures): the batch is invoked again from the first
 *   failed record, `retryAttempts` times, then the failure goes to the dead letters (kept in
 *   memory, appended to a JSON Lines file, logged) and the shard moves on;
 * - each worker reads in a loop of its own (one worker's long batch holds back no other's) and
 *   keeps its own position per shard, saved after each handled batch when a file is given, so a
 *   restart on persisted data resumes where it stopped: nothing lost, nothing repeated.
 */
import { writeLogLine } from '../log-sink.js';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as SdkRecord,
  type AttributeValue as SdkAttributeValue,
  type Shard,
  type ShardIteratorType,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue, Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { streamFilterPatterns, type StreamWorker, type TableStreamTrigger, type WorkerDef } from '../workers.js';
import { checkPattern, matchesPattern, type EventPattern } from './event-pattern.js';
import { runAsWorker } from './iam-check.js';
import { importHandler, workerContext } from './lambda-context.js';
import { sourceHandlers, type HandlerFiles } from './handler-files.js';

// eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- as aws-lambda's handler type: a handler that returns nothing is one
export type StreamHandler = (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse | void>;

export interface StreamPollerOptions {
  region: string;
  /** DynamoDB Local; it serves the Streams API on the same endpoint. */
  endpoint: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  tableName: string;
  /** The workers the table's stream feeds (shared/workers.ts `isTableStream`). */
  workers: readonly StreamWorker[];
  /** Handler paths are relative to this directory; defaults to the repository root. */
  rootDir?: string;
  /** Where the handlers are: the sources under `rootDir` by default, or the bundles (shared/local/handler-files.ts). */
  files?: HandlerFiles;
  /** Handlers by worker id instead of importing the worker's file (tests). */
  handlers?: Record<string, StreamHandler>;
  /**
   * Where a worker with no saved position starts: TRIM_HORIZON (all the stream holds; right for
   * a table or stream created just now) or LATEST (only what is written after the start).
   */
  startAt: 'TRIM_HORIZON' | 'LATEST';
  /** Keeps shard positions in this file across restarts; in memory only when absent. */
  checkpointFile?: string;
  /** Dead letters are appended to this file as JSON lines. */
  deadLetterFile?: string;
  /** Pause between reads when the stream had nothing new, unless woken (`wake`). Default 250 ms. */
  pollIntervalMs?: number;
  /**
   * The caller calls `wake` after every write to the table: then a read that was not full is
   * followed by a pause too, which the next write ends (one read per burst of writes, instead of
   * one more read to find the stream empty and one every `pollIntervalMs` while nothing happens).
   */
  wokenByWrites?: boolean;
  /** Pause before invoking a failed batch again, doubled each time, capped at 1 s. Default 100 ms. */
  retryDelayMs?: number;
  log?: (line: PollerLogLine) => void;
}

export interface PollerLogLine {
  level: 'info' | 'error';
  source: 'stream-poller';
  msg: string;
  [field: string]: unknown;
}

/** What Lambda sends to an on-failure destination for a stream batch, in short. */
export interface DeadLetter {
  worker: string;
  streamArn: string;
  shardId: string;
  startSequenceNumber: string;
  endSequenceNumber: string;
  batchSize: number;
  reason: string;
  at: string;
}

export interface StreamPoller {
  readonly streamArn: string;
  readonly deadLetters: readonly DeadLetter[];
  /**
   * Something was written to the table: each reading loop pausing for want of records reads at
   * once, and one reading now reads again when done. Given a caller that sees every write (the
   * test run's proxy in front of DynamoDB Local), the pause between empty reads can be long.
   */
  wake(): void;
  /** Stops reading; an invocation under way finishes first (a retry pause does not). */
  stop(): Promise<void>;
}

interface Checkpoints {
  streamArn: string;
  /** worker id -> shard id -> last handled sequence number (null: seen, nothing handled yet). */
  positions: Record<string, Record<string, string | null>>;
}

/** Thrown out of a retry pause when the poller stops: the batch stays unhandled (and unsaved). */
class Stopped extends Error {}

const DESCRIBE_EVERY_MS = 5_000;
const MAX_RECORDS_PER_READ = 1_000;
/**
 * A woken poller reads at its loop's next tick of this period, as Lambda's event source mapping
 * polls a stream's shards four times a second (https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html):
 * the writes of a burst reach the worker as one batch, as in AWS, not one invocation each. Measured
 * on the analytics test run alone (1,000 events, 200 incidents): reading 20 ms after each wake made
 * it 11,600 DynamoDB calls, 535 invocations of count-analytics and 557 of publish-events; the tick,
 * 8,358 calls, 196 and 202. A full run under load shows no difference: its batches grow anyway.
 */
const READ_EVERY_MS = 250;

/** What every worker's consumer shares. */
interface Runtime {
  options: StreamPollerOptions;
  streams: DynamoDBStreamsClient;
  streamArn: string;
  log: (line: PollerLogLine) => void;
  deadLetters: DeadLetter[];
  save: () => void;
  stopping: () => boolean;
  /** A pause that ends early (with Stopped) when the poller stops. */
  pause: (ms: number) => Promise<void>;
}

export async function startStreamPoller(options: StreamPollerOptions): Promise<StreamPoller> {
  const log = options.log ?? ((line: PollerLogLine) => writeLogLine({ ...line }));
  const clientConfig = { region: options.region, endpoint: options.endpoint, credentials: options.credentials };
  const dynamodb = new DynamoDBClient(clientConfig);
  const streams = new DynamoDBStreamsClient(clientConfig);
  // As for the table's client (shared/db/client.ts): the SDK's logger step copies every output,
  // filtered for secrets, for a logger never given; here every GetRecords' records.
  streams.middlewareStack.remove('loggerMiddleware');
  const destroy = () => {
    dynamodb.destroy();
    streams.destroy();
  };

  let stopping = false;
  /** Ends every pause under way (each worker's reading loop may be in one). */
  const sleepers = new Set<() => void>();
  /** Idle pauses (no records at the last read), which a write ends as well as a stop. */
  const idlers = new Set<() => void>();
  /** Writes told by `wake`: a loop that started its last read before the latest reads again at once. */
  let writes = 0;
  const wakeAll = () => {
    for (const wake of [...sleepers, ...idlers]) wake();
  };
  /** A pause that a write (or a stop) ends early; resolves whether a write came since `seenWrites`. */
  const idle = (ms: number, seenWrites: number) =>
    new Promise<boolean>((done) => {
      if (writes !== seenWrites || stopping) return done(true);
      const end = () => {
        clearTimeout(timer);
        idlers.delete(end);
        done(writes !== seenWrites);
      };
      const timer = setTimeout(end, ms);
      idlers.add(end);
    });
  const sleep = (ms: number) =>
    new Promise<void>((done) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        done();
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
    });

  let streamArn: string | undefined;
  const consumers: Consumer[] = [];
  const deadLetters: DeadLetter[] = [];
  const checkpoints: Checkpoints = { streamArn: '', positions: {} };
  try {
    const table = await dynamodb.send(new DescribeTableCommand({ TableName: options.tableName }));
    streamArn = table.Table?.LatestStreamArn;
    if (!streamArn)
      throw new Error(`table ${options.tableName} has no stream: provision it with one (shared/local/provision.ts)`);
    const saved = readCheckpoints(options.checkpointFile, streamArn);
    Object.assign(checkpoints, saved ?? { streamArn, positions: {} });
    const runtime: Runtime = {
      options,
      streams,
      streamArn,
      log,
      deadLetters,
      save: () => {
        if (!options.checkpointFile) return;
        const tmp = `${options.checkpointFile}.tmp`;
        writeFileSync(tmp, `${JSON.stringify(checkpoints, null, 2)}\n`);
        renameSync(tmp, options.checkpointFile);
      },
      stopping: () => stopping,
      pause: async (ms) => {
        if (!stopping) await sleep(ms);
        if (stopping) throw new Stopped();
      },
    };
    for (const worker of options.workers) {
      const handler =
        options.handlers?.[worker.id] ??
        (await importHandler<StreamHandler>((options.files ?? sourceHandlers(options.rootDir)).fileOf(worker)));
      const consumer = new Consumer(
        runtime,
        worker,
        worker.trigger,
        handler,
        (checkpoints.positions[worker.id] ??= {}),
      );
      // With saved positions, a shard the file does not know began after the last save: read it
      // all. Iterators of the shards open now are taken before start returns, so nothing written
      // after it is missed, even at LATEST.
      await consumer.describe(saved ? 'TRIM_HORIZON' : options.startAt);
      consumers.push(consumer);
    }
    runtime.save();
  } catch (error) {
    destroy();
    throw error;
  }

  const pollIntervalMs = options.pollIntervalMs ?? 250;
  // One reading loop per worker, as each event source mapping reads on its own in AWS: a worker
  // busy with a long batch does not hold back another's records.
  const loop = Promise.all(
    consumers.map(async (consumer) => {
      let lastError = '';
      let readAt: number;
      while (!stopping) {
        const seenWrites = writes;
        readAt = Date.now();
        let read = 0;
        try {
          read = await consumer.poll();
          lastError = '';
        } catch (error) {
          if (error instanceof Stopped) break;
          // Once per distinct error, not four times a second.
          const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
          if (message !== lastError)
            log({ level: 'error', source: 'stream-poller', msg: 'reading the table stream failed', error: message });
          lastError = message;
        }
        // More may be waiting right behind a full read, or behind any read nothing wakes us for.
        const more = read >= MAX_RECORDS_PER_READ || (read > 0 && !options.wokenByWrites);
        if (more || stopping) continue;
        // Woken by a write: read at the loop's next quarter-second tick, so the rest of its burst
        // comes in the same read.
        if (await idle(pollIntervalMs, seenWrites))
          await sleep(READ_EVERY_MS - ((Date.now() - readAt) % READ_EVERY_MS));
      }
    }),
  );

  let stopped: Promise<void> | undefined;
  return {
    streamArn,
    deadLetters,
    wake: () => {
      writes += 1;
      for (const end of [...idlers]) end();
    },
    stop: () =>
      (stopped ??= (async () => {
        stopping = true;
        wakeAll();
        await loop;
        destroy();
      })()),
  };
}

interface ShardState {
  id: string;
  parentId: string | undefined;
  iterator: string | undefined;
  /** How to get an iterator while there is no position. */
  start: ShardIteratorType;
  /** Closed and read to its end. */
  done: boolean;
}

/** One worker's reading of the stream: its own positions, like its own event source mapping. */
class Consumer {
  private readonly shards = new Map<string, ShardState>();
  private readonly patterns: EventPattern[];
  private lastDescribe = 0;

  constructor(
    private readonly rt: Runtime,
    private readonly worker: WorkerDef,
    private readonly trigger: TableStreamTrigger,
    private readonly handler: StreamHandler,
    /** shard id -> last handled sequence number; the object saved in the checkpoint file. */
    private readonly positions: Record<string, string | null>,
  ) {
    this.patterns = streamFilterPatterns(trigger).map((pattern) => {
      checkPattern(pattern);
      return pattern;
    });
  }

  /** Learns the stream's shards; new ones start at `startAt` unless a position is saved. */
  async describe(startAt: ShardIteratorType): Promise<void> {
    const listed: Shard[] = [];
    let exclusiveStartShardId: string | undefined;
    do {
      const out = await this.rt.streams.send(
        new DescribeStreamCommand({ StreamArn: this.rt.streamArn, ExclusiveStartShardId: exclusiveStartShardId }),
      );
      listed.push(...(out.StreamDescription?.Shards ?? []));
      exclusiveStartShardId = out.StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);
    this.lastDescribe = Date.now();

    const ids = new Set(listed.map((s) => s.ShardId!));
    // Shards past the stream's retention are gone.
    for (const id of this.shards.keys()) {
      if (!ids.has(id)) this.shards.delete(id);
    }
    for (const shard of listed) {
      const id = shard.ShardId!;
      if (this.shards.has(id)) continue;
      const closed = Boolean(shard.SequenceNumberRange?.EndingSequenceNumber);
      const state: ShardState = {
        id,
        parentId: shard.ParentShardId,
        iterator: undefined,
        start: startAt,
        // Reading a closed shard from LATEST yields nothing.
        done: !(id in this.positions) && startAt === 'LATEST' && closed,
      };
      this.shards.set(id, state);
      this.positions[id] ??= null;
      if (!state.done && startAt === 'LATEST') state.iterator = await this.iteratorFor(state);
    }
  }

  /** Reads each readable shard once and handles what came; returns the records read. */
  async poll(): Promise<number> {
    if (Date.now() - this.lastDescribe > DESCRIBE_EVERY_MS) await this.describe('TRIM_HORIZON');
    let read = 0;
    for (const shard of this.shards.values()) {
      if (shard.done) continue;
      // A child shard's records come after all of its parent's.
      const parent = shard.parentId ? this.shards.get(shard.parentId) : undefined;
      if (parent && !parent.done) continue;
      read += await this.readShard(shard);
    }
    return read;
  }

  private async iteratorFor(shard: ShardState): Promise<string | undefined> {
    const position = this.positions[shard.id];
    const out = await this.rt.streams.send(
      new GetShardIteratorCommand({
        StreamArn: this.rt.streamArn,
        ShardId: shard.id,
        ...(position
          ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: position }
          : { ShardIteratorType: shard.start }),
      }),
    );
    return out.ShardIterator;
  }

  private async readShard(shard: ShardState): Promise<number> {
    shard.iterator ??= await this.iteratorFor(shard);
    if (!shard.iterator) {
      shard.done = true;
      return 0;
    }
    let out;
    try {
      out = await this.rt.streams.send(
        new GetRecordsCommand({ ShardIterator: shard.iterator, Limit: MAX_RECORDS_PER_READ }),
      );
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'ExpiredIteratorException') {
        // Taken again from the saved position on the next read.
        shard.iterator = undefined;
        return 0;
      }
      if (name === 'TrimmedDataAccessException') {
        shard.iterator = undefined;
        shard.start = 'TRIM_HORIZON';
        delete this.positions[shard.id];
        this.rt.log({
          level: 'error',
          source: 'stream-poller',
          msg: 'records expired before they were handled',
          worker: this.worker.id,
          shard: shard.id,
        });
        return 0;
      }
      throw error;
    }
    const records = (out.Records ?? []).map((r) => lambdaRecord(r, this.rt.streamArn));
    if (records.length > 0) {
      await this.handle(shard, records);
      this.positions[shard.id] = records.at(-1)!.dynamodb!.SequenceNumber!;
      this.rt.save();
    }
    shard.iterator = out.NextShardIterator;
    if (!shard.iterator) {
      shard.done = true;
      // Its children may be listed already, or appear at the next describe: look now.
      this.lastDescribe = 0;
    }
    return records.length;
  }

  /** Invokes the handler with the records the filter lets through, `batchSize` at a time. */
  private async handle(shard: ShardState, records: DynamoDBRecord[]): Promise<void> {
    const matching = records.filter((r) => this.patterns.some((p) => matchesPattern(p, r)));
    for (let i = 0; i < matching.length; i += this.trigger.batchSize) {
      await this.invokeWithRetries(shard, matching.slice(i, i + this.trigger.batchSize));
    }
  }

  private async invokeWithRetries(shard: ShardState, records: DynamoDBRecord[]): Promise<void> {
    let batch = records;
    for (let attempt = 0; ; attempt++) {
      let failedFrom: number;
      let reason: string;
      try {
        const response = await runAsWorker(this.worker, () =>
          this.handler({ Records: batch }, workerContext(this.worker, this.rt.options.region)),
        );
        const failures = response?.batchItemFailures ?? [];
        if (failures.length === 0) return;
        // As Lambda: resume from the first failed record; an identifier that names no record of
        // the batch fails all of it.
        const indexes = failures.map((f) => batch.findIndex((r) => r.dynamodb?.SequenceNumber === f.itemIdentifier));
        failedFrom = indexes.includes(-1) ? 0 : Math.min(...indexes);
        reason = `${failures.length} batch item failure(s)`;
      } catch (error) {
        failedFrom = 0;
        reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      }
      batch = batch.slice(failedFrom);
      if (attempt >= this.trigger.retryAttempts) {
        this.deadLetter(shard, batch, reason);
        return;
      }
      const base = this.rt.options.retryDelayMs ?? 100;
      await this.rt.pause(Math.min(1000, base * 2 ** attempt));
    }
  }

  private deadLetter(shard: ShardState, batch: DynamoDBRecord[], reason: string): void {
    const letter: DeadLetter = {
      worker: this.worker.id,
      streamArn: this.rt.streamArn,
      shardId: shard.id,
      startSequenceNumber: batch[0]?.dynamodb?.SequenceNumber ?? '',
      endSequenceNumber: batch.at(-1)?.dynamodb?.SequenceNumber ?? '',
      batchSize: batch.length,
      reason,
      at: new Date().toISOString(),
    };
    this.rt.deadLetters.push(letter);
    if (this.rt.options.deadLetterFile) appendFileSync(this.rt.options.deadLetterFile, `${JSON.stringify(letter)}\n`);
    this.rt.log({
      level: 'error',
      source: 'stream-poller',
      msg: 'batch failed after every retry: dead-lettered',
      ...letter,
    });
  }
}

function readCheckpoints(file: string | undefined, streamArn: string): Checkpoints | undefined {
  if (!file || !existsSync(file)) return undefined;
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as Checkpoints;
    // Positions in another stream (the table was made again) mean nothing here.
    return data.streamArn === streamArn && typeof data.positions === 'object' ? data : undefined;
  } catch {
    return undefined;
  }
}

/** A stream record as Lambda delivers it: epoch seconds, binary values as base64 text. */
function lambdaRecord(record: SdkRecord, streamArn: string): DynamoDBRecord {
  const image = (values: Record<string, SdkAttributeValue> | undefined) =>
    values ? Object.fromEntries(Object.entries(values).map(([k, v]) => [k, lambdaValue(v)])) : undefined;
  const d = record.dynamodb;
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion,
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion,
    eventSourceARN: streamArn,
    dynamodb: d && {
      ApproximateCreationDateTime: d.ApproximateCreationDateTime
        ? Math.floor(d.ApproximateCreationDateTime.getTime() / 1000)
        : undefined,
      Keys: image(d.Keys),
      NewImage: image(d.NewImage),
      OldImage: image(d.OldImage),
      SequenceNumber: d.SequenceNumber,
      SizeBytes: d.SizeBytes,
      StreamViewType: d.StreamViewType,
    },
  };
}

function lambdaValue(value: SdkAttributeValue): AttributeValue {
  const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
  if (value.B !== undefined) return { B: base64(value.B) };
  if (value.BS !== undefined) return { BS: value.BS.map(base64) };
  if (value.L !== undefined) return { L: value.L.map(lambdaValue) };
  if (value.M !== undefined)
    return { M: Object.fromEntries(Object.entries(value.M).map(([k, v]) => [k, lambdaValue(v)])) };
  return value as AttributeValue;
}
