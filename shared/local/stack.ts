/**
 * The local stand-ins of the AWS parts, started together: DynamoDB Local, s3rver, cognito-local,
 * provisioned like the CDK stack, and `process.env` set so the very Lambda handlers find them.
 * The workers of shared/workers.ts run too: the table's stream is polled and handed to them as
 * Lambda's event source mapping would, schedules run on timers and event rules subscribe to the
 * bus (shared/local/async-workers.ts), and they publish to the in-process event bus
 * (shared/local/event-bus.ts), whose events are also appended to `<dataDir>/logs/event-bus.jsonl`.
 *
 * Set the env before importing any handler: `shared/config.ts` reads it when it loads.
 */
import { writeLogLine } from '../log-sink.js';
import { mkdirSync, openSync, readFileSync, rmSync, writeFileSync, closeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startCognitoLocal } from './cognito-local.js';
import { startDynamoDbLocal } from './dynamodb-local.js';
import { isAlive, type LocalService } from './process.js';
import { supervise } from './supervise.js';
import { LOCAL_NAMES, provision } from './provision.js';
import { S3RVER_CREDENTIALS, startS3Local } from './s3-local.js';
import { startSmtpLocal } from './smtp.js';
import { isTableStream, WORKERS } from '../workers.js';
import { localEventBus } from './event-bus.js';
import { startStreamPoller, type StreamPoller } from './stream-poller.js';
import { startAsyncWorkers, type AsyncWorkers } from './async-workers.js';
import { localQueues } from './queue.js';
import { startQueueWorkers, type QueueWorkers } from './queue-workers.js';
import { QUEUES } from '../workers.js';
import { asService, checkSharedClients } from './iam-check.js';
import { sendTableReadsTo } from './dynamodb-reads.js';
import type { HandlerFiles } from './handler-files.js';

/** What stands in front of DynamoDB Local (shared/local/dynamodb-meter.ts is one). */
export interface DynamoDbFront {
  /** The endpoint the handlers use. */
  url: string;
  /**
   * Calls the listener after every write it passed on. With it, the stream poller reads as soon
   * as something is written and, between writes, reads every 2 s instead of every 250 ms: on two
   * cores the reads of an idle stream cost the test run about 3.5% of a core per stack.
   */
  onWrite?(listener: () => void): void;
  /**
   * It needs to see the writes only (the test run's item-size check): the handlers' other calls go
   * to DynamoDB Local itself (shared/local/dynamodb-reads.ts). A metering front counts reads too.
   */
  writesOnly?: boolean;
}

export interface LocalStackOptions {
  /** Where data and logs live. Created when missing. */
  dataDir: string;
  /**
   * Keep data across restarts. Without it DynamoDB runs in memory and the S3 and Cognito files
   * under `dataDir` are removed at stop (the directory itself is the caller's).
   */
  persist: boolean;
  region?: string;
  /**
   * Also copy `env` into `process.env` (the default): what `npm start` and the test run's global
   * setup want. Tests that start a second stack pass false, so they do not repoint the shared one.
   */
  setProcessEnv?: boolean;
  /**
   * Run the workers (the table stream poller) in this process. Defaults to `setProcessEnv`: the
   * handlers read `process.env`, so they belong to the stack that set it.
   */
  workers?: boolean;
  /**
   * Run the schedule workers on their timers (the default). The test run turns them off: its SLA
   * tests drive the scheduler themselves, on clocks of their own, and a timer here would race them.
   */
  schedules?: boolean;
  /**
   * Workers (shared/workers.ts ids) not to run: their triggers pile up (the stream's records, their
   * queues' messages, their schedules' turns) as when a worker is down in AWS. Unknown ids throw.
   */
  stoppedWorkers?: readonly string[];
  /**
   * Puts something in front of DynamoDB Local for the handlers (the benchmarks' metering proxy,
   * the test run's item-size check): given DynamoDB Local's endpoint, returns the one the
   * handlers use.
   */
  dynamodbFront?: (endpoint: string) => Promise<DynamoDbFront>;
  /** The workers' handlers: the sources by default, or the bundles (shared/local/handler-files.ts). */
  files?: HandlerFiles;
  /** Told as each part comes up, with the milliseconds since the start (what `npm start` prints). */
  progress?: (part: string, ms: number) => void;
}

/** The variables the handlers read (see shared/config.ts), with their local values. */
export type LocalEnv = Record<string, string>;

export interface LocalStack {
  env: LocalEnv;
  endpoints: { dynamodb: string; s3: string; cognito: string };
  /** What this start created rather than found (all false on a restart with persisted data). */
  created: { table: boolean; bucket: boolean; userPool: boolean };
  /** Milliseconds spent starting services and provisioning. */
  timings: { services: number; provision: number };
  /** The table stream poller running the stream workers; absent when `workers` is false. */
  streamPoller?: StreamPoller;
  /** The schedule and event-rule workers; absent when `workers` is false. */
  asyncWorkers?: AsyncWorkers;
  /** The queue workers; absent when `workers` is false. */
  queueWorkers?: QueueWorkers;
  /** How many times DynamoDB Local was started again after it died. */
  dynamodbRestarts(): number;
  stop(): Promise<void>;
}

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const dataDir = resolve(options.dataDir);
  const region = options.region ?? 'us-east-1';
  const logs = join(dataDir, 'logs');
  const dirs = {
    dynamodb: join(dataDir, 'dynamodb'),
    s3: join(dataDir, 's3'),
    cognito: join(dataDir, 'cognito'),
    mail: join(dataDir, 'mail'),
  };
  const stateFile = join(dataDir, 'local-stack.json');
  const checkpointFile = join(dataDir, 'stream-checkpoints.json');
  // The local stand-in for the KMS key that seals kept secrets (shared/local/secret-box.ts).
  const secretsKeyFile = join(dataDir, 'secrets.key');
  // ... and for the HMAC key that seals audit entries (shared/local/audit-mac.ts).
  const auditKeyFile = join(dataDir, 'audit-mac.key');
  const eventBusLog = join(logs, 'event-bus.jsonl');
  // What is on the local queues (shared/local/queue.ts), kept across restarts.
  const queuesFile = join(dataDir, 'queues.json');
  mkdirSync(logs, { recursive: true });
  const releaseLock = lockDataDir(dataDir);
  // What a run that does not persist leaves behind it, and finds at its start after a crash.
  const scratch = [
    dirs.s3,
    dirs.cognito,
    dirs.mail,
    stateFile,
    checkpointFile,
    eventBusLog,
    secretsKeyFile,
    auditKeyFile,
    queuesFile,
  ];
  if (!options.persist) removeFiles(...scratch);
  mkdirSync(dirs.s3, { recursive: true });
  if (options.persist) mkdirSync(dirs.dynamodb, { recursive: true });

  const t0 = performance.now();
  const told = <T extends { endpoint: string }>(part: string, started: Promise<T>): Promise<T> =>
    started.then((service) => {
      options.progress?.(`${part} ${service.endpoint}`, performance.now() - t0);
      return service;
    });
  // In parallel: DynamoDB Local (the JVM, ~2 s) dominates; the others hide behind it.
  const [dynamodbResult, s3Result, cognitoResult, smtpResult] = await Promise.allSettled([
    told(
      'DynamoDB Local',
      startDynamoDbLocal({
        dbPath: options.persist ? dirs.dynamodb : undefined,
        logFile: join(logs, 'dynamodb-local.log'),
      }),
    ),
    told('s3rver', startS3Local({ directory: dirs.s3 })),
    told('cognito-local', startCognitoLocal({ directory: dirs.cognito, logFile: join(logs, 'cognito-local.log') })),
    // The mail people would get, as .eml files under <dataDir>/mail (shared/local/smtp.ts).
    told('mail (SMTP)', startSmtpLocal({ directory: dirs.mail })),
  ]);
  const results = [dynamodbResult, s3Result, cognitoResult, smtpResult];
  const services: LocalService[] = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  let streamPoller: StreamPoller | undefined;
  let asyncWorkers: AsyncWorkers | undefined;
  let queueWorkers: QueueWorkers | undefined;
  const unsubscribeFeeds: (() => void)[] = [];
  let recording = false;
  const stopAll = async () => {
    // The workers first: they use the services.
    unsubscribeFeeds.forEach((u) => u());
    await queueWorkers?.stop();
    await asyncWorkers?.stop();
    (await import('./connector-timers.js')).setConnectorTimers(undefined);
    await streamPoller?.stop();
    if (recording) localEventBus().recordTo(undefined);
    await Promise.allSettled(services.map((s) => s.stop()));
    if (!options.persist) removeFiles(...scratch, join(logs, 'notifications.jsonl'));
    releaseLock();
  };
  if (
    dynamodbResult.status === 'rejected' ||
    s3Result.status === 'rejected' ||
    cognitoResult.status === 'rejected' ||
    smtpResult.status === 'rejected'
  ) {
    await stopAll();
    throw results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []))[0];
  }
  const [dynamodb, s3, cognito, smtp] = [dynamodbResult.value, s3Result.value, cognitoResult.value, smtpResult.value];
  const t1 = performance.now();
  const superviseLog = (msg: string, fields?: Record<string, unknown>) =>
    writeLogLine({ level: 'warn', source: 'local-stack', msg, ...fields }, 'error');
  // DynamoDB Local that dies is started again on its port (its data kept on disk when persisted;
  // in memory, the table is made again), and the stream is read again.
  const port = Number(new URL(dynamodb.endpoint).port);
  const dynamodbSupervised = supervise(dynamodb, {
    name: 'DynamoDB Local',
    restart: () =>
      startDynamoDbLocal({
        dbPath: options.persist ? dirs.dynamodb : undefined,
        logFile: join(logs, 'dynamodb-local.log'),
        port,
      }),
    recovered: async () => {
      const again = await provision({
        region,
        dynamodbEndpoint: dynamodb.endpoint,
        s3Endpoint: s3.endpoint,
        cognitoEndpoint: cognito.endpoint,
        stateFile,
      });
      if (workersOn) {
        await streamPoller?.stop();
        streamPoller = await startPoller(again.tableStream.new);
      }
    },
    log: superviseLog,
  });
  services[services.indexOf(dynamodb)] = { endpoint: dynamodb.endpoint, stop: () => dynamodbSupervised.stop() };
  // cognito-local likewise, on its port: the tokens' issuer (which names the port) stays valid,
  // and its users and pool are in its files.
  const cognitoSupervised = supervise(cognito, {
    name: 'cognito-local',
    restart: () =>
      startCognitoLocal({
        directory: dirs.cognito,
        logFile: join(logs, 'cognito-local.log'),
        port: Number(new URL(cognito.endpoint).port),
      }),
    recovered: async () => undefined,
    log: superviseLog,
  });
  services[services.indexOf(cognito)] = { endpoint: cognito.endpoint, stop: () => cognitoSupervised.stop() };

  let provisioned;
  try {
    provisioned = await provision({
      region,
      dynamodbEndpoint: dynamodb.endpoint,
      s3Endpoint: s3.endpoint,
      cognitoEndpoint: cognito.endpoint,
      stateFile,
    });
  } catch (error) {
    await stopAll();
    throw error;
  }
  const t2 = performance.now();
  options.progress?.(`table, bucket and user pool ${provisioned.created.table ? 'created' : 'found'}`, t2 - t0);

  const issuer = `${cognito.issuerDomain}/${provisioned.userPoolId}`;
  const front = options.dynamodbFront ? await options.dynamodbFront(dynamodb.endpoint) : undefined;
  const dynamodbEndpoint = front?.url ?? dynamodb.endpoint;
  front?.onWrite?.(() => streamPoller?.wake());
  const env: LocalEnv = {
    GATEHOUSE_STAGE: 'local',
    AWS_REGION: region,
    // Any credentials do for DynamoDB Local (-sharedDb) and cognito-local; s3rver wants these.
    AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    TABLE_NAME: provisioned.tableName,
    BUCKET_NAME: provisioned.bucketName,
    // No local EventBridge: events go to the in-process bus (shared/local/event-bus.ts).
    EVENT_BUS_NAME: LOCAL_NAMES.eventBus,
    EVENT_BUS_MODE: 'local',
    // Every event published to the local bus, one JSON line each (for tests and for a look).
    LOCAL_EVENT_BUS_LOG: eventBusLog,
    // What each role's users would receive, with its acknowledgement link (email recipients and
    // integrations get their own messages: shared/adapters/notification-sender.ts).
    LOCAL_NOTIFICATIONS_FILE: join(logs, 'notifications.jsonl'),
    LOCAL_SECRETS_KEY_FILE: secretsKeyFile,
    LOCAL_AUDIT_KEY_FILE: auditKeyFile,
    LOCAL_SMTP_URL: smtp.endpoint,
    // Where the local SMTP server keeps each message (tests and people read them there).
    LOCAL_MAIL_DIR: dirs.mail,
    // The local queues' state (shared/local/queue.ts), kept on disk only with the data: the
    // queues of a run in memory live and end with it, and writing their state five times a second
    // cost the test run's server about 50 CPU seconds.
    LOCAL_QUEUES_FILE: options.persist ? queuesFile : '',
    // Webhook receivers on this machine only when the developer says so (docs/configuration.md).
    OUTBOUND_ALLOW_LOOPBACK: process.env.OUTBOUND_ALLOW_LOOPBACK === 'true' ? 'true' : 'false',
    USER_POOL_ID: provisioned.userPoolId,
    USER_POOL_CLIENT_ID: provisioned.userPoolClientId,
    DYNAMODB_ENDPOINT: dynamodbEndpoint,
    S3_ENDPOINT: s3.endpoint,
    COGNITO_ENDPOINT: cognito.endpoint,
    // What cognito-local writes into `iss` (checked in test/integration/local-runtime.test.ts).
    JWT_ISSUER: issuer,
    // The keys at today's endpoint; the issuer is the first start's (shared/local/cognito-local.ts).
    JWKS_URI: cognito.jwksUri(provisioned.userPoolId),
    // Safety net: an SDK client created without an explicit endpoint still stays local.
    AWS_ENDPOINT_URL_DYNAMODB: dynamodbEndpoint,
    AWS_ENDPOINT_URL_S3: s3.endpoint,
    AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: cognito.endpoint,
  };
  if (options.setProcessEnv ?? true) {
    Object.assign(process.env, env);
    // Real credentials from the developer's shell must not mix with the dummies above.
    delete process.env.AWS_SESSION_TOKEN;
    delete process.env.AWS_PROFILE;
    // Functions run here may make only the calls their role in AWS would allow.
    await checkSharedClients();
    if (front?.writesOnly) await sendTableReadsTo(dynamodb.endpoint);
  }

  const workersOn = options.workers ?? options.setProcessEnv ?? true;
  const stopped = new Set(options.stoppedWorkers ?? []);
  for (const id of stopped)
    if (!WORKERS.some((w) => w.id === id))
      throw new Error(
        `no worker ${id} to leave stopped (GATEHOUSE_STOPPED_WORKERS): ${WORKERS.map((w) => w.id).join(', ')}`,
      );
  const running = WORKERS.filter((w) => !stopped.has(w.id));
  const tableName = provisioned.tableName;
  const startPoller = (newStream: boolean) =>
    startStreamPoller({
      region,
      endpoint: dynamodb.endpoint,
      credentials: S3RVER_CREDENTIALS,
      tableName,
      workers: running.filter(isTableStream),
      // A new table or stream holds only what was written since: read it all. Otherwise the
      // positions saved at the last stop say where to go on.
      startAt: newStream ? 'TRIM_HORIZON' : 'LATEST',
      checkpointFile: options.persist ? checkpointFile : undefined,
      deadLetterFile: join(logs, 'stream-dead-letters.jsonl'),
      files: options.files,
      // Woken by every write the front sees: the pause is only for writes that bypass it.
      ...(front?.onWrite ? { pollIntervalMs: 2_000, wokenByWrites: true } : {}),
    });
  if (workersOn) {
    localEventBus().recordTo(eventBusLog);
    recording = true;
    try {
      streamPoller = await startPoller(provisioned.tableStream.new);
      asyncWorkers = await startAsyncWorkers({
        region,
        workers: running.filter(
          (w) =>
            !isTableStream(w) &&
            w.trigger.kind !== 'queue' &&
            (options.schedules !== false || w.trigger.kind !== 'schedule'),
        ),
        deadLetterFile: join(logs, 'worker-dead-letters.jsonl'),
        files: options.files,
      });
      if (running.some((w) => w.id === 'connector-poll')) await armConnectorTimers(asyncWorkers);
      // The rules on the service's bus that feed a queue, then the workers reading the queues.
      const queues = localQueues();
      for (const queue of QUEUES) {
        const rule = 'busRule' in queue ? queue.busRule : undefined;
        if (!rule) continue;
        unsubscribeFeeds.push(
          // The rule's own permission puts the event on the queue, not the publisher's.
          localEventBus().subscribe(`queue:${queue.id}`, rule, (event) =>
            asService(() => queues.send(queue.id, [{ body: JSON.stringify(event) }])),
          ),
        );
      }
      queueWorkers = await startQueueWorkers({
        queues,
        region,
        workers: running.filter((w) => w.trigger.kind === 'queue'),
        files: options.files,
      });
      options.progress?.(`workers running (${running.length})`, performance.now() - t0);
    } catch (error) {
      await stopAll();
      throw error;
    }
  }

  let stopping: Promise<void> | undefined;
  return {
    env,
    endpoints: { dynamodb: dynamodb.endpoint, s3: s3.endpoint, cognito: cognito.endpoint },
    created: provisioned.created,
    timings: { services: Math.round(t1 - t0), provision: Math.round(t2 - t1) },
    get streamPoller() {
      return streamPoller;
    },
    asyncWorkers,
    queueWorkers,
    dynamodbRestarts: () => dynamodbSupervised.restarts(),
    stop: () => (stopping ??= stopAll()),
  };
}

/**
 * Connectors poll on timers under `npm start` only with LOCAL_CONNECTORS=on; then the connectors
 * the table holds are armed again (shared/local/connector-timers.ts). Read once the stack's
 * settings are in the environment.
 */
async function armConnectorTimers(workers: AsyncWorkers): Promise<void> {
  const [{ config }, timers, { listAllConnectors }, { armConnector }] = await Promise.all([
    import('../config.js'),
    import('./connector-timers.js'),
    import('../db/connectors.js'),
    import('../domain/connectors/index.js'),
  ]);
  timers.setConnectorTimers(workers.itemSchedules('connector-poll', config.connectors.localTimers));
  if (!config.connectors.localTimers) return;
  for (const c of await listAllConnectors()) await armConnector(c);
}

/**
 * One running stack per data directory: two DynamoDB Locals on one database file would corrupt it.
 * A lock left by a process that is gone is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, '.lock');
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(file, 'utf8'));
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
        throw new Error(`${dataDir} is in use by process ${holder}: give this instance another GATEHOUSE_DATA_DIR`, {
          cause: error,
        });
      }
      rmSync(file, { force: true });
    }
  }
}

function removeFiles(...paths: string[]): void {
  for (const path of paths) rmSync(path, { recursive: true, force: true });
}
