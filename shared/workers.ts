/**
 * The functions that are not HTTP routes, as data, like the route table: the CDK stack creates
 * one function per entry with its trigger (lib/workers-stack.ts), and the local runtime runs the
 * same handler from the same trigger (shared/local/stream-poller.ts for the table's stream,
 * shared/local/async-workers.ts for schedules and event rules).
 */
import type { EventPattern } from './vocabulary/event-pattern.js';
import type { RouteGrants } from './routes/types.js';
import { WEBHOOK_EVENT_TYPES } from './schemas/webhooks.js';
import { EVENT_TYPES } from './vocabulary/event-types.js';
import { INCIDENT_CHANGES } from './vocabulary/workflows.js';
import { MAP_EXTRACTION_RECEIVES, QUEUE_IDS, type QueueId } from './vocabulary/queues.js';
import {
  BGP_ALERT_FOUND,
  CONNECTORS_SOURCE,
  EPISODE_FOUND,
  EXTRACTION_REQUESTED,
  HAZARD_FOUND,
  INFRASTRUCTURE_SOURCE,
  PLAN_CHANGED,
  TENANTS_SOURCE,
  VESSELS_SOURCE,
  WATCH_ALERT_FOUND,
  WATCHLIST_SOURCE,
} from './vocabulary/bus.js';

/** DynamoDB stream record kinds. */
export type StreamEventName = 'INSERT' | 'MODIFY' | 'REMOVE';

/** Records of these changes to items whose `entity` attribute is one of these. */
export interface StreamFilter {
  eventNames: readonly StreamEventName[];
  entities: readonly string[];
}

/**
 * The single table's stream (NEW_IMAGE), read by a Lambda event source mapping in AWS and by the
 * local poller under `npm start`. Only records that pass one of the filters reach the handler.
 *
 * DynamoDB Streams serves at most two readers per shard without throttling: the stream has two
 * workers, and a new need of the stream joins one of them (a filter more) instead of a third.
 */
export interface TableStreamTrigger {
  kind: 'table-stream';
  /** Which records are delivered: those passing any of these (Lambda's filter criteria, OR'ed; at most 5). */
  filters: readonly StreamFilter[];
  /** Records per invocation at most. */
  batchSize: number;
  /**
   * Times a batch that still reports failures is retried; then its failure is sent to the
   * worker's dead-letter queue and the shard moves on.
   */
  retryAttempts: number;
}

/**
 * Lambda invokes these asynchronously: a failed invocation is retried `retryAttempts` times, then
 * its event goes to the worker's dead-letter queue (an alarm watches it).
 */
interface AsyncTrigger {
  /** 0 to 2, as Lambda's asynchronous invocation allows. */
  retryAttempts: 0 | 1 | 2;
}

/**
 * A timer: an EventBridge rule `rate(n minutes)` in AWS, a timer in the local runtime
 * (shared/local/async-workers.ts). The event is EventBridge's "Scheduled Event".
 */
export interface ScheduleTrigger extends AsyncTrigger {
  kind: 'schedule';
  everyMinutes: number;
}

/**
 * An EventBridge rule on the account's default bus, where AWS services (Transcribe, ...) put
 * their events. Locally the in-process bus stands for it.
 */
export interface EventRuleTrigger extends AsyncTrigger {
  kind: 'event-rule';
  /** The rule's pattern, in EventBridge's own syntax (shared/vocabulary/event-pattern.ts). */
  pattern: { source: readonly string[]; 'detail-type': readonly string[]; detail?: EventPattern };
}

/**
 * One of the service's SQS queues (QUEUES), read by a Lambda event source mapping in AWS and by
 * the local queue runner under `npm start` (shared/local/queue-workers.ts). The handler answers an
 * `SQSBatchResponse`: a message it names in `batchItemFailures` stays on the queue and comes back
 * when its visibility runs out (the handler may set that first, to wait before trying again);
 * the others are deleted.
 */
export interface QueueTrigger {
  kind: 'queue';
  queue: QueueId;
  /** Messages per invocation at most: 10 at most without a batching window (SQS's rule for a standard queue). */
  batchSize: number;
  /** Invocations running at once at most (2 to 1000; Lambda's `maximumConcurrency`). */
  maxConcurrency: number;
  /**
   * Seconds the mapping may gather messages before it invokes (Lambda's
   * `MaximumBatchingWindowInSeconds`, 1 to 300): it invokes once `batchSize` messages are there,
   * their payload reaches 6 MB, or the window has passed. Needed for a `batchSize` over 10; the
   * queue's visibility timeout then grows by it (six times the timeout plus the window, as AWS advises).
   */
  maxBatchingWindowSeconds?: number;
}

/**
 * Schedules made at run time, one per item (a connector's: docs/connectors.md): EventBridge
 * Scheduler invokes the function asynchronously with the item's own input; locally, a timer per
 * item (shared/local/async-workers.ts). The function has a fixed name so the schedules' role can
 * name it (lib/connector-schedules.ts).
 */
export interface SchedulerTrigger extends AsyncTrigger {
  kind: 'scheduler';
  /**
   * Which of the connectors' pollers this is: `standard` for every feed, `large` for the feeds
   * whose document needs the memory (an RPKI export: feed-catalog.ts `largePoll`). Each has its
   * fixed name and dead letters (lib/connector-schedules.ts); a schedule targets one of them.
   */
  poller: ConnectorPoller;
}

export type ConnectorPoller = 'standard' | 'large';

export type WorkerTrigger = TableStreamTrigger | ScheduleTrigger | EventRuleTrigger | QueueTrigger | SchedulerTrigger;

/**
 * A queue of the service, with its dead-letter queue (and an alarm on it). A message received
 * `maxReceiveCount` times without being deleted moves to the dead-letter queue; a consumer may
 * also send one there itself (grant `queues: { <id>: 'dead-letters' }`).
 */
export interface QueueDef {
  id: QueueId;
  description: string;
  /** What else feeds it: a rule on the service's own bus whose matching events are sent here, whole. */
  busRule?: EventRuleTrigger['pattern'];
  /**
   * How long a received message is hidden from other consumers: at least 6 times the consumer's
   * timeout, plus its batching window when it has one, as AWS advises.
   */
  visibilityTimeoutSeconds: number;
  maxReceiveCount: number;
  /** How long a message is kept at most (seconds; SQS allows up to 14 days). */
  retentionSeconds: number;
}

export const QUEUES = [
  {
    id: 'webhook-dispatch',
    description: 'Every subscribable message of the service bus, to be matched with the subscriptions of its tenant',
    busRule: {
      source: ['gatehouse.events', 'gatehouse.incidents'],
      // The subscribable types only (GET /api/v1/webhooks/events); not incident.notification,
      // which carries people to notify, nor the webhooks' own messages.
      'detail-type': [...WEBHOOK_EVENT_TYPES],
    },
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    retentionSeconds: 4 * 24 * 3600,
  },
  {
    id: 'webhook-deliveries',
    description:
      'One message per webhook delivery; a failed attempt waits out its retry delay on the queue (shared/domain/webhooks/delivery-policy.ts)',
    visibilityTimeoutSeconds: 180,
    // Eight attempts on the schedule, and room for four crashes of the deliverer.
    maxReceiveCount: 12,
    retentionSeconds: 4 * 24 * 3600,
  },
  {
    id: 'notifications',
    description:
      'Each incident.notification of the service bus, to be sent to its people and integrations with links minted then',
    busRule: { source: ['gatehouse.incidents'], 'detail-type': ['incident.notification'] },
    // Six times the sender's timeout.
    visibilityTimeoutSeconds: 180,
    // A notification that cannot be sent after five tries waits in the dead letters (alarmed).
    maxReceiveCount: 5,
    retentionSeconds: 4 * 24 * 3600,
  },
  {
    id: 'workflow-runs',
    description:
      'Every stored event and incident change of the service bus, for the workflows they trigger; and runs to go on with (a playbook started, a wait ended)',
    busRule: {
      source: ['gatehouse.events', 'gatehouse.incidents'],
      'detail-type': [...EVENT_TYPES, ...INCIDENT_CHANGES],
    },
    // Six times the runner's timeout.
    visibilityTimeoutSeconds: 360,
    // Three tries of a failing step, and room for crashes of the runner.
    maxReceiveCount: 8,
    retentionSeconds: 4 * 24 * 3600,
  },
  {
    id: 'vessel-episodes',
    description:
      "The events the service announces itself, each in its message: the vessel tracker's episodes found (AIS gaps, loitering; docs/vessels.md), watchlist alerts (docs/watchlist.md) and connectors' hazard and routing alerts (docs/connectors.md)",
    busRule: {
      source: [VESSELS_SOURCE, WATCHLIST_SOURCE, CONNECTORS_SOURCE],
      'detail-type': [EPISODE_FOUND, WATCH_ALERT_FOUND, HAZARD_FOUND, BGP_ALERT_FOUND],
    },
    // Six times the announcer's timeout.
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    retentionSeconds: 4 * 24 * 3600,
  },
  {
    id: 'data-lake',
    description:
      'Every stored event and incident change of the service bus, to be written to the data lake as Parquet (docs/data-lake.md)',
    busRule: {
      source: ['gatehouse.events', 'gatehouse.incidents'],
      'detail-type': [...EVENT_TYPES, ...INCIDENT_CHANGES],
    },
    // Six times the exporter's timeout, plus its batching window (5 s).
    visibilityTimeoutSeconds: 365,
    maxReceiveCount: 8,
    retentionSeconds: 4 * 24 * 3600,
  },
  {
    id: 'map-extractions',
    description:
      'Infrastructure files too large for a request (past what it extracts of KML, GeoJSON or shapefile data), marked processing by their extract call with an infrastructure.extraction_requested message, to be extracted in the background (docs/features.md)',
    // The extract call writes the message in the transaction that marks the file processing;
    // publish-events takes it from the table's stream to the bus (no third reader of the stream,
    // and no queue client in the route's bundle).
    busRule: { source: [INFRASTRUCTURE_SOURCE], 'detail-type': [EXTRACTION_REQUESTED] },
    // Six times the extractor's timeout.
    visibilityTimeoutSeconds: 3600,
    // A file the extractor refuses is answered as failed, not retried; this is for crashes.
    maxReceiveCount: MAP_EXTRACTION_RECEIVES,
    retentionSeconds: 4 * 24 * 3600,
  },
  {
    id: 'plan-changes',
    description:
      "Each tenant.plan_changed of the service bus, to give the tenant's events the TTL of the new plan's retention (docs/plans.md)",
    busRule: { source: [TENANTS_SOURCE], 'detail-type': [PLAN_CHANGED] },
    // Six times the worker's timeout.
    visibilityTimeoutSeconds: 1800,
    // A re-stamp is idempotent: five tries, then the dead letters (alarmed) for an operator.
    maxReceiveCount: 5,
    retentionSeconds: 4 * 24 * 3600,
  },
] as const satisfies readonly QueueDef[];

export type { QueueId, QueueTarget } from './vocabulary/queues.js';

// Every named queue is defined, once.
if (
  QUEUES.map((q) => q.id)
    .sort()
    .join() !== [...QUEUE_IDS].sort().join()
)
  throw new Error('QUEUES and QUEUE_IDS (shared/vocabulary/queues.ts) disagree');

export function queueById(id: string): QueueDef {
  const queue = (QUEUES as readonly QueueDef[]).find((q) => q.id === id);
  if (!queue) throw new Error(`no queue ${id}`);
  return queue;
}

export interface WorkerDef {
  /** Unique, stable id; also the Lambda's logical name. */
  id: string;
  /**
   * Runs only under the local runtime: the stand-in for something AWS does not have yet (the
   * notification sender, until integrations exist). The CDK stack leaves it out.
   */
  localOnly?: true;
  /** Handler entry, relative to the repository root, exporting `handler`. */
  handler: string;
  description: string;
  trigger: WorkerTrigger;
  /** AWS resources the function touches beyond reading its trigger, granted exactly. */
  grants: RouteGrants;
  timeoutSeconds: number;
  memoryMb: number;
}

export const WORKERS: readonly WorkerDef[] = [
  {
    id: 'publish-events',
    handler: 'functions/workers/publish-events.ts',
    description: 'Publishes stored events and outbox messages to the event bus (docs/events.md)',
    trigger: {
      kind: 'table-stream',
      // New items only: a rewrite of an existing event (a retried ingest, marking it processed)
      // is a MODIFY and is not published again.
      filters: [{ eventNames: ['INSERT'], entities: ['EVENT', 'OUTBOX'] }],
      batchSize: 100,
      retryAttempts: 10,
    },
    grants: { eventBus: true },
    // 100 records are 10 PutEvents calls, each entry retried with backoff: far under a minute.
    timeoutSeconds: 60,
    memoryMb: 256,
  },
  {
    id: 'count-analytics',
    handler: 'functions/workers/count-analytics.ts',
    description:
      "Keeps the analytics counters of events and incidents, the active threats, and the vessels' tracks from AIS events, each event counted exactly once (docs/analytics.md, docs/threat-libraries.md, docs/vessels.md)",
    // One worker for these: DynamoDB Streams throttles a shard read by more than two consumers at
    // once, and publish-events is the other. The vessel tracker needs the stream's order (a tenant's
    // events in the order they were stored, one batch after the other): a vessel's track is
    // complete up to the batch it analyses. The filter passes MODIFYs of events too (marking one
    // processed, linking it); the handler drops them.
    trigger: {
      kind: 'table-stream',
      // And new pending incident list counts (shared/db/incident-list-counts.ts), applied if their
      // change's own step did not.
      filters: [
        { eventNames: ['INSERT', 'MODIFY'], entities: ['EVENT', 'INCIDENT'] },
        { eventNames: ['INSERT'], entities: ['INCIDENT_LIST_COUNTS'] },
      ],
      batchSize: 100,
      retryAttempts: 10,
    },
    grants: { table: 'write' },
    // 100 records are two or three transactions and a BatchGetItem: seconds at worst.
    timeoutSeconds: 60,
    memoryMb: 256,
  },
  {
    id: 'sla-escalation',
    handler: 'functions/workers/sla-escalation.ts',
    description: 'Marks SLA breaches and escalates incidents nobody acknowledged (docs/configuration.md)',
    // Every minute: an incident escalates at most a minute (and its processing) after it is due.
    // A failed run is not retried: the next one finds the same timers.
    trigger: { kind: 'schedule', everyMinutes: 1, retryAttempts: 0 },
    grants: { audit: 'seal', table: 'write' },
    // Under the one-minute period, so two runs rarely overlap (they may: every write is versioned).
    timeoutSeconds: 50,
    memoryMb: 256,
  },
  {
    id: 'audit-digests',
    handler: 'functions/workers/audit-digests.ts',
    description: "Digests each tenant's settled audit hours, chained, for tamper evidence (docs/data-model.md, 37b)",
    // An hour is digested within 20 minutes of its end (5 of settling, then the next run). A failed
    // run is not retried: the next one goes on from each chain's head.
    trigger: { kind: 'schedule', everyMinutes: 15, retryAttempts: 0 },
    grants: { table: 'write' },
    timeoutSeconds: 300,
    memoryMb: 256,
  },
  {
    id: 'transcription-finished',
    handler: 'functions/workers/transcription-finished.ts',
    description: 'Completes voice drafts whose Transcribe job outlived the request (docs/events.md)',
    trigger: {
      kind: 'event-rule',
      // Transcribe puts these on the account's default bus; our jobs' names start with gh-.
      pattern: {
        source: ['aws.transcribe'],
        'detail-type': ['Transcribe Job State Change'],
        detail: { TranscriptionJobName: [{ prefix: 'gh-' }], TranscriptionJobStatus: ['COMPLETED', 'FAILED'] },
      },
      retryAttempts: 2,
    },
    // Reads the job and its transcript (in the files bucket), extracts the fields with Bedrock,
    // and completes the drafts.
    grants: { audit: 'seal', table: 'write', bucket: 'read', speech: 'read', ai: true },
    timeoutSeconds: 60,
    memoryMb: 512,
  },
  {
    id: 'send-notifications',
    handler: 'functions/workers/send-notifications.ts',
    description:
      'Sends each incident.notification to its people with an acknowledgement link minted then (docs/events.md)',
    trigger: { kind: 'queue', queue: 'notifications', batchSize: 10, maxConcurrency: 5 },
    // Opens the integrations' sealed settings and sends email (issue 14, item 7).
    grants: { table: 'write', secrets: 'open', email: true },
    timeoutSeconds: 30,
    memoryMb: 256,
  },
  {
    id: 'webhook-dispatch',
    handler: 'functions/workers/webhook-dispatch.ts',
    description: 'Makes one delivery per matching webhook subscription of each bus message (docs/webhooks.md)',
    trigger: { kind: 'queue', queue: 'webhook-dispatch', batchSize: 10, maxConcurrency: 5 },
    // Reads the tenant's subscriptions, writes the deliveries, queues them.
    grants: { table: 'write', queues: { 'webhook-deliveries': 'send' } },
    timeoutSeconds: 30,
    memoryMb: 256,
  },
  {
    id: 'webhook-deliver',
    handler: 'functions/workers/webhook-deliver.ts',
    description: 'POSTs each webhook delivery, signed, and schedules its retries on the queue (docs/webhooks.md)',
    trigger: { kind: 'queue', queue: 'webhook-deliveries', batchSize: 10, maxConcurrency: 20 },
    // Opens the signing secrets; sends what ran out of attempts to the dead letters; tells the
    // owner of a subscription it turns off.
    grants: {
      audit: 'seal',
      table: 'write',
      secrets: 'open',
      email: true,
      queues: { 'webhook-deliveries': 'dead-letters' },
    },
    // Ten receivers of 15 s each, one after the other at worst.
    timeoutSeconds: 30,
    memoryMb: 256,
  },
  {
    id: 'workflow-runner',
    handler: 'functions/workers/workflow-runner.ts',
    description:
      "Runs the tenants' workflows on the bus messages that trigger them, and goes on with runs (docs/workflows.md)",
    trigger: { kind: 'queue', queue: 'workflow-runs', batchSize: 10, maxConcurrency: 5 },
    // Changes incidents (table), tells integrations (their sealed settings, email), makes webhook
    // deliveries and queues them, queues the runs that other runs start.
    grants: {
      audit: 'seal',
      table: 'write',
      secrets: 'open',
      email: true,
      queues: { 'workflow-runs': 'send', 'webhook-deliveries': 'send' },
    },
    timeoutSeconds: 60,
    memoryMb: 256,
  },
  {
    id: 'vessel-announcer',
    handler: 'functions/workers/vessel-announcer.ts',
    description:
      "Ingests the events the service announces: vessel episodes (ais.gap, vessel.loitering) found by the tracker (docs/vessels.md), watchlist alerts (docs/watchlist.md) and connectors' hazard alerts (docs/connectors.md)",
    trigger: { kind: 'queue', queue: 'vessel-episodes', batchSize: 10, maxConcurrency: 2 },
    // Ingests events: reads the tenant's zones and definitions, writes events and incidents.
    grants: { audit: 'seal', table: 'write' },
    timeoutSeconds: 30,
    memoryMb: 256,
  },
  {
    id: 'retention-restamp',
    handler: 'functions/workers/retention-restamp.ts',
    description:
      "Gives a tenant's events the TTL of its plan's retention when the plan changes (docs/plans.md); idempotent",
    trigger: { kind: 'queue', queue: 'plan-changes', batchSize: 1, maxConcurrency: 2 },
    // Reads the tenant and its configuration, updates its events' TTL.
    grants: { table: 'write' },
    timeoutSeconds: 300,
    memoryMb: 256,
  },
  {
    id: 'connector-poll',
    handler: 'functions/workers/connector-poll.ts',
    description:
      "Polls one connector's feed on its schedule, keeps the new and changed records (an RPKI export as one object in the bucket) and raises hazard and routing alerts (docs/connectors.md)",
    // A failed poll is not tried again at once: the next one comes within the interval. A poll
    // that throws (the table unreachable) goes to the dead letters.
    trigger: { kind: 'scheduler', retryAttempts: 0, poller: 'standard' },
    // Reads the connector, the tenant's environments and lines (files in the bucket); writes
    // records, the status and the alerts' guards and messages; removes a stale schedule; sends
    // what it read to the data-lake queue (and keeps its export state under lake-state/). RIS
    // polls read the tenant's RPKI export back from feeds/ of the bucket. Opens the credentials of a
    // source's URL, when it has any (sealed with the integration's config).
    grants: { table: 'write', bucket: 'write', schedules: true, secrets: 'open', queues: { 'data-lake': 'send' } },
    // A feed is read in 20 s at most (a RIS Live window, 20 s at most, waits on the network);
    // storing a KEV catalogue of 1,500 records is 15 BatchGetItems and the writes of what changed.
    timeoutSeconds: 120,
    memoryMb: 512,
  },
  {
    id: 'connector-poll-large',
    handler: 'functions/workers/connector-poll.ts',
    description:
      'Polls the connectors whose documents need the memory (an RPKI export, kept as one object in the bucket) on their schedules: the connector-poll worker with 2 GB (docs/connectors.md)',
    trigger: { kind: 'scheduler', retryAttempts: 0, poller: 'large' },
    grants: { table: 'write', bucket: 'write', schedules: true, secrets: 'open', queues: { 'data-lake': 'send' } },
    // The global RPKI export (about 50 MB of JSON, 700,000 VRPs): its body, its parse and its
    // compact list peak near 1 GB (measured 757 MB). Only its schedules invoke this function, so
    // the other feeds' polls (every 5 to 15 minutes) are not billed at 2 GB.
    timeoutSeconds: 120,
    memoryMb: 2048,
  },
  {
    id: 'workflow-timers',
    handler: 'functions/workers/workflow-timers.ts',
    description:
      'Queues the workflow runs whose wait ended and starts scheduled workflows when due (docs/workflows.md)',
    // Every minute: a wait ends at most a minute (and its processing) late. A failed run is not
    // retried: the next one finds the same timers.
    trigger: { kind: 'schedule', everyMinutes: 1, retryAttempts: 0 },
    grants: { table: 'write', queues: { 'workflow-runs': 'send' } },
    timeoutSeconds: 50,
    memoryMb: 256,
  },
  {
    id: 'export-lake',
    handler: 'functions/workers/export-lake.ts',
    description:
      'Writes stored events, vessel positions, incident changes and connector records to the data lake as Parquet, by tenant and day (docs/data-lake.md)',
    // A queue fed by a bus rule, not the table's stream: the stream has its two readers already.
    // One file per table, tenant and day per batch, so the batch is as large as the function
    // writes comfortably: 100 messages (at most 6 MB, Lambda's payload limit) encode in about
    // 15 ms for one tenant's day, 130 ms for 100 files of 50 tenants, and peak near 150 MB, far
    // under 60 s and 512 MB (docs/data-lake.md). The window lets a batch fill: the lake promises
    // no freshness, and 5 s is nothing next to a query over days.
    trigger: { kind: 'queue', queue: 'data-lake', batchSize: 100, maxBatchingWindowSeconds: 5, maxConcurrency: 2 },
    // Writes the files under lake/ of the files bucket, and each tenant's Glue database and tables.
    grants: { bucket: 'write', lake: 'catalog' },
    timeoutSeconds: 60,
    memoryMb: 512,
  },
  {
    id: 'extract-maps',
    handler: 'functions/workers/extract-maps.ts',
    description:
      'Extracts the geometries of large infrastructure files uploaded through upload-url, streaming, and stores them or marks them failed (docs/features.md)',
    // One file at a time per invocation: each may hold its limits' worth of features in memory.
    trigger: { kind: 'queue', queue: 'map-extractions', batchSize: 1, maxConcurrency: 2 },
    // Reads the upload and writes the features (bucket), the file item and its audit entry (table).
    grants: { audit: 'seal', table: 'write', bucket: 'write' },
    // 230,000 placemarks (22 MB of KML) took about 20-35 s on the 2-core build machine and peaked
    // near 370 MB; the limits (500,000 placemarks, 5,000,000 coordinates, 128 MiB) leave room.
    timeoutSeconds: 600,
    memoryMb: 2048,
  },
];

/** The workers a deployment creates (the local-only ones stay home). */
export const DEPLOYED_WORKERS: readonly WorkerDef[] = WORKERS.filter((w) => !w.localOnly);

/** The workers running where this code runs: the local-only ones too under `npm start`. */
export const workersOfStage = (stage: string): readonly WorkerDef[] => (stage === 'local' ? WORKERS : DEPLOYED_WORKERS);

export function workerById(id: string): WorkerDef {
  const worker = WORKERS.find((w) => w.id === id);
  if (!worker) throw new Error(`no worker ${id}`);
  return worker;
}

/** A worker's trigger, checked to be of `kind`. */
export function triggerOf<K extends WorkerTrigger['kind']>(id: string, kind: K): Extract<WorkerTrigger, { kind: K }> {
  const trigger = workerById(id).trigger;
  if (trigger.kind !== kind) throw new Error(`worker ${id} has a ${trigger.kind} trigger, not ${kind}`);
  return trigger as Extract<WorkerTrigger, { kind: K }>;
}

/** A worker fed by the table's stream. */
export type StreamWorker = WorkerDef & { trigger: TableStreamTrigger };

export function isTableStream(worker: WorkerDef): worker is StreamWorker {
  return worker.trigger.kind === 'table-stream';
}

/**
 * The trigger's filters as event patterns over the stream record, as Lambda's event filtering
 * reads them (the image in DynamoDB JSON): the CDK event source mapping's filter criteria, and
 * what the local poller applies before invoking the handler (a record passing any of them).
 */
/** Whether a record of this change to an item of this entity passes the trigger's filters. */
export function passesStreamFilters(
  trigger: TableStreamTrigger,
  eventName: string | undefined,
  entity: string | undefined,
): boolean {
  return trigger.filters.some(
    (f) => (f.eventNames as readonly string[]).includes(eventName ?? '') && f.entities.includes(entity ?? ''),
  );
}

export function streamFilterPatterns(trigger: TableStreamTrigger): Record<string, unknown>[] {
  return trigger.filters.map((f) => ({
    eventName: [...f.eventNames],
    dynamodb: { NewImage: { entity: { S: [...f.entities] } } },
  }));
}
