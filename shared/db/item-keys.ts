/**
 * The single table's item keys, one named export each (the partitions' prefixes and shared parts:
 * shared/db/keys.ts). Imported as a namespace, `import * as keys from './item-keys.js'`, and read
 * as `keys.user(...)`: esbuild then keeps only the builders a function calls, where one object of
 * all of them put every key of the table (5.5 KB) in every bundle. docs/data-model.md lists the
 * access pattern behind each key.
 */
import {
  EVENT_MINUTES_PK_PREFIX,
  RATE_PK_PREFIX,
  SLA_TIMERS_PK,
  WORKFLOW_TIMERS_PK,
  sequenceKey,
  telemetryPk,
  tenantPk,
} from './keys.js';

export const tenant = (tenantId: string) => ({ PK: tenantPk(tenantId), SK: 'TENANT' });

/** GSI1: the tenant directory, oldest first, for SUPER_ADMIN listings. */
export const tenantDirectory = (createdAt: string, tenantId: string) => ({
  GSI1PK: 'TENANTS',
  GSI1SK: `${createdAt}#${tenantId}`,
});

export const tenantConfig = (tenantId: string) => ({ PK: tenantPk(tenantId), SK: 'CONFIG' });

export const user = (tenantId: string, userId: string) => ({ PK: tenantPk(tenantId), SK: `USER#${userId}` });

/** GSI1: a tenant's users, oldest first. */
export const userDirectory = (tenantId: string, createdAt: string, userId: string) => ({
  GSI1PK: `${tenantPk(tenantId)}#USERS`,
  GSI1SK: `${createdAt}#${userId}`,
});

/** A user's API key, by key id; the key itself names its tenant and id. */
export const apiKey = (tenantId: string, keyId: string) => ({ PK: tenantPk(tenantId), SK: `APIKEY#${keyId}` });

/** A webhook subscription of a tenant, by id (UUIDv7: the tenant's list is in creation order). */
export const webhook = (tenantId: string, webhookId: string) => ({
  PK: tenantPk(tenantId),
  SK: `WEBHOOK#${webhookId}`,
});

/** An integration of a tenant, by id. */
export const integration = (tenantId: string, integrationId: string) => ({
  PK: tenantPk(tenantId),
  SK: `INTEGRATION#${integrationId}`,
});

/**
 * A threat: one threat definition matching in one zone (or in none), by an id named from them
 * (shared/ids.ts namedId), so the counting consumer writes it without reading it first.
 */
export const threat = (tenantId: string, threatId: string) => ({ PK: tenantPk(tenantId), SK: `THREAT#${threatId}` });

/** GSI1: a tenant's threats, most recently seen first (the active ones are those seen lately). */
export const threatRecency = (tenantId: string, lastSeen: string, threatId: string) => ({
  GSI1PK: `${tenantPk(tenantId)}#THREATS`,
  GSI1SK: `${lastSeen}#${threatId}`,
});

/**
 * How many of a plan-limited kind (sensors) a tenant has (shared/db/plan-counts.ts): moved in
 * the transactions that create and delete them, the plan's limit its condition.
 */
export const planCount = (tenantId: string, limit: string) => ({ PK: tenantPk(tenantId), SK: `PLANCOUNT#${limit}` });

/** How many integrations a tenant has: the limit is checked in the creating transaction. */
export const integrationCount = (tenantId: string) => ({ PK: tenantPk(tenantId), SK: 'INTEGRATIONCOUNT' });

/** A threat library of a tenant, by id, its definitions embedded (at most 20 a tenant: one Query reads them all). */
export const threatLibrary = (tenantId: string, libraryId: string) => ({
  PK: tenantPk(tenantId),
  SK: `THREATLIB#${libraryId}`,
});

/** How many threat libraries a tenant has: the limit is checked in the creating transaction. */
export const threatLibraryCount = (tenantId: string) => ({ PK: tenantPk(tenantId), SK: 'THREATLIBCOUNT' });

/** A workflow, in the tenant's partition: all of a tenant's (at most 50) are one Query. */
export const workflow = (tenantId: string, workflowId: string) => ({
  PK: tenantPk(tenantId),
  SK: `WORKFLOW#${workflowId}`,
});

export const workflowCount = (tenantId: string) => ({ PK: tenantPk(tenantId), SK: 'WORKFLOWCOUNT' });

/** A run of a workflow, in the workflow's runs partition by its time-ordered id (newest first is one Query), kept 90 days. */
export const workflowRun = (tenantId: string, workflowId: string, runId: string) => ({
  PK: `${tenantPk(tenantId)}#WFRUNS#${workflowId}`,
  SK: runId,
});

/**
 * When the workflow timers' worker must act: a waiting run to resume, or a scheduled workflow to
 * start. Not tenant data: one partition for every tenant, sorted by time, like the SLA timers.
 */
export const workflowTimer = (wakeAt: string, tenantId: string, ref: string) => ({
  PK: WORKFLOW_TIMERS_PK,
  SK: `${wakeAt}#${tenantId}#${ref}`,
});

/**
 * A delivery of a message to a webhook subscription, by its delivery id (a UUIDv7 derived from
 * the message: time-ordered, and the same on every redelivery of the message). Kept 30 days.
 */
export const webhookDelivery = (tenantId: string, webhookId: string, deliveryId: string) => ({
  PK: `${tenantPk(tenantId)}#WEBHOOK#${webhookId}`,
  SK: `DELIVERY#${deliveryId}`,
});

/**
 * GSI1: a subscription's deliveries of one status, by delivery id (pattern 42b). Set with the
 * status on every write that changes it, so the failed ones are a key range, not a filter.
 */
export const webhookDeliveryByStatus = (tenantId: string, webhookId: string, status: string, deliveryId: string) => ({
  GSI1PK: `${tenantPk(tenantId)}#WEBHOOK#${webhookId}#${status}`,
  GSI1SK: `DELIVERY#${deliveryId}`,
});

/** How many webhook subscriptions a tenant has: the limit is checked in the creating transaction. */
export const webhookCount = (tenantId: string) => ({ PK: tenantPk(tenantId), SK: 'WEBHOOKCOUNT' });

/**
 * A fixed-window counter of an anonymous caller (by IP). Not tenant data: the caller has no
 * tenant yet. Expires with TTL.
 */
export const rateWindow = (name: string, caller: string, windowStart: number) => ({
  PK: `${RATE_PK_PREFIX}${name}#${caller}`,
  SK: String(windowStart),
});

/**
 * A worker's runs and errors in one UTC hour, and its last run and error (shared/db/heartbeats.ts).
 * Platform data, under the counters' prefix: every worker may write it (one UpdateItem), even one
 * without table access; the live status reads the whole partition (one Query).
 */
export const heartbeat = (workerId: string, hour: string) => ({
  PK: `${RATE_PK_PREFIX}HEARTBEAT`,
  SK: `${workerId}#${hour}`,
});

/** A tenant's agent settings: which agents it switched off (shared/domain/agents/settings.ts). */
export const agentSettings = (tenantId: string) => ({ PK: tenantPk(tenantId), SK: 'AGENTS' });

/** The times of a caller's accepted calls within the last window: a sliding window. Expires with TTL. */
export const rateLog = (name: string, caller: string) => ({ PK: `${RATE_PK_PREFIX}${name}#${caller}`, SK: 'LOG' });

/** Failed logins of one account (by a hash of its email), from any address. Expires with TTL. */
export const loginGuard = (emailHash: string) => ({ PK: `${RATE_PK_PREFIX}login-account#${emailHash}`, SK: 'GUARD' });

/**
 * A registration waiting for its confirmation link, or the trace of one for an address that has
 * an account (shared/domain/accounts/registration.ts), by a hash of the email. Not tenant data:
 * the tenant exists only once the link is used.
 */
export const registration = (emailHash: string) => ({ PK: `REGISTRATION#${emailHash}`, SK: 'REGISTRATION' });

/**
 * GSI4 (keys only), on a tenant's minute once it stored events: which tenants stored events in
 * which minute, one partition per hour, so the live stream watching every tenant reads only
 * those. Not tenant data: it names tenants, nothing of theirs.
 */
export const tenantEventMinute = (windowStart: number, tenantId: string) => ({
  GSI4PK: `${EVENT_MINUTES_PK_PREFIX}${windowStart - (windowStart % 3600)}`,
  GSI4SK: `${windowStart}#${tenantId}`,
});

export const environment = (tenantId: string, environmentId: string) => ({
  PK: tenantPk(tenantId),
  SK: `ENV#${environmentId}`,
});

/** GSI1: a tenant's environments, oldest first. */
export const environmentDirectory = (tenantId: string, createdAt: string, environmentId: string) => ({
  GSI1PK: `${tenantPk(tenantId)}#ENVS`,
  GSI1SK: `${createdAt}#${environmentId}`,
});

/** GSI2: a tenant's environments of one type. */
export const environmentByType = (tenantId: string, type: string, createdAt: string, environmentId: string) => ({
  GSI2PK: `${tenantPk(tenantId)}#ENVTYPE#${type}`,
  GSI2SK: `${createdAt}#${environmentId}`,
});

/** GSI3: a tenant's environments of one status. */
export const environmentByStatus = (tenantId: string, status: string, createdAt: string, environmentId: string) => ({
  GSI3PK: `${tenantPk(tenantId)}#ENVSTATUS#${status}`,
  GSI3SK: `${createdAt}#${environmentId}`,
});

/** A thing inside an environment (zone, sensor, asset, file), by its own id. */
/**
 * One batch of a fibre sensor's telemetry frames (shared/db/telemetry.ts): the index item of an
 * S3 object, by the batch's first frame time and its batch id (a window is one Query).
 */
export const telemetryBatch = (tenantId: string, sensorId: string, start: string, batchId: string) => ({
  PK: telemetryPk(tenantId, sensorId),
  SK: `${start}#${batchId}`,
});

/** The disturbances a fibre sensor's detections keep open across batches (one item; `OPEN` sorts after every batch's time, so a window's Query never reads it). */
export const telemetryOpen = (tenantId: string, sensorId: string) => ({
  PK: telemetryPk(tenantId, sensorId),
  SK: 'OPEN',
});

export const siteEntity = (tenantId: string, prefix: string, id: string) => ({
  PK: tenantPk(tenantId),
  SK: `${prefix}${id}`,
});

/** How many times the tenant's things of one kind changed, and when last (zones: ingest's cache). */
export const siteRevision = (tenantId: string, prefix: string) => ({
  PK: tenantPk(tenantId),
  SK: `REVISION#${prefix}`,
});

/** GSI1: the things of one kind inside an environment, oldest first. */
export const environmentContents = (
  tenantId: string,
  environmentId: string,
  prefix: string,
  createdAt: string,
  id: string,
) => ({
  GSI1PK: `${tenantPk(tenantId)}#ENV#${environmentId}`,
  GSI1SK: `${prefix}${createdAt}#${id}`,
});

/**
 * An infrastructure file announced through a presigned upload URL and not extracted yet, by the
 * file id it will have. Expires with TTL.
 */
export const pendingUpload = (tenantId: string, fileId: string) => ({ PK: tenantPk(tenantId), SK: `UPLOAD#${fileId}` });

/** A tenant's events, one partition, sorted by their time-ordered (UUIDv7) ids. */
export const event = (tenantId: string, eventId: string) => ({ PK: `${tenantPk(tenantId)}#EVENT`, SK: eventId });

/**
 * A tenant's store sequence (shared/db/event-sequence.ts): the counter ingest reserves ranges
 * from, and the ranges a failed request gave up, in one partition of the tenant's.
 */
export const eventSequence = (tenantId: string) => ({ PK: `${tenantPk(tenantId)}#EVSEQ`, SK: 'COUNTER' });

/**
 * A range given up, in the events' partition (GSI5's partition key is the table's): `~` sorts
 * after every event id, so no listing of events (`SK BETWEEN <id> AND <id>`) reads it.
 */
export const eventSequenceVoid = (tenantId: string, first: number) => ({
  PK: `${tenantPk(tenantId)}#EVENT`,
  SK: `~VOID#${sequenceKey(first)}`,
});

/**
 * GSI5 (sparse; partition key `PK`, the events' own partition, so an event pays no second copy
 * of it): a tenant's events (and given-up ranges) by store sequence, what the live stream reads.
 * Events stored before the sequence existed have none and are not in it.
 */
export const eventInSequence = (seq: number) => ({ GSI5SK: sequenceKey(seq) });

/** GSI1: the events of one environment. */
export const eventByEnvironment = (tenantId: string, environmentId: string, eventId: string) => ({
  GSI1PK: `${tenantPk(tenantId)}#ENV#${environmentId}`,
  GSI1SK: `EVENT#${eventId}`,
});

/** GSI2: the events of one type. */
export const eventByType = (tenantId: string, type: string, eventId: string) => ({
  GSI2PK: `${tenantPk(tenantId)}#EVTYPE#${type}`,
  GSI2SK: eventId,
});

/**
 * GSI3 (sparse): the events an operator marked processed, the few among many. Unprocessed ones
 * are most events: they are read from the tenant's partition (or the environment or type index)
 * with a filter that drops few.
 */
export const eventProcessed = (tenantId: string, eventId: string) => ({
  GSI3PK: `${tenantPk(tenantId)}#PROCESSED`,
  GSI3SK: eventId,
});

/** GSI4: the events of one source and score band (`eventFilter`). */
export const eventFilterPartition = (tenantId: string, source: string, band: string) => ({
  GSI4PK: `${tenantPk(tenantId)}#EVF#${source}#${band}`,
});

/**
 * GSI4 (keys only, sparse): an event by its source and score band, for the filters that keep few
 * (shared/db/event-pages.ts). Only events of a source other than the dominant one (`api`) or
 * scored at least the lowest band (0.5) have it: `band` is `0.5` ... `0.9` (the tenth the score
 * is in; 0.9 holds 0.9 to 1) or `-` below. The sort key is the event id (newest first), then what
 * the index cannot hold otherwise (it projects keys only): the exact score, the type and the first
 * 8 characters of the environment id, so a page tests them on the key before reading the event.
 */
export const eventFilter = (
  tenantId: string,
  source: string,
  band: string,
  eventId: string,
  tags: { score: number | null; type: string; environmentId: string | null },
) => ({
  ...eventFilterPartition(tenantId, source, band),
  GSI4SK: `${eventId}#${tags.score ?? ''}#${tags.type}#${(tags.environmentId ?? '').slice(0, 8)}`,
});

/** An incident's own item (its transitions and notes share the partition). */
export const incident = (tenantId: string, incidentId: string) => ({
  PK: `${tenantPk(tenantId)}#INC#${incidentId}`,
  SK: 'INCIDENT',
});

/** GSI1: a tenant's incidents, newest first by their UUIDv7 ids (items of before the list rows; bin/migrate-incident-list.ts). */
export const incidentDirectory = (tenantId: string, incidentId: string) => ({
  GSI1PK: `${tenantPk(tenantId)}#INCIDENTS`,
  GSI1SK: incidentId,
});

/**
 * An entry of an incident's timeline, in its partition right after the incident item (one Query of
 * `begins_with INCIDENT` reads both): ordered by the incident version its change wrote, then by its
 * place in that change. Entries of before the timeline had items of its own are version 0.
 */
export const incidentTimeline = (tenantId: string, incidentId: string, version: number, index: number) => ({
  PK: `${tenantPk(tenantId)}#INC#${incidentId}`,
  SK: `${INCIDENT_TIMELINE_PREFIX}${String(version).padStart(10, '0')}#${String(index).padStart(4, '0')}`,
});
export const INCIDENT_TIMELINE_PREFIX = 'INCIDENT#TL#';

/**
 * A row of a tenant's incident list: keys only. One per scope the list filters by (`all`,
 * `status#<s>`, `severity#<v>`, `env#<eid>`, `zone#<zid>`) and order (`c` created, `u` updated,
 * `v` severity, `s` status, `e` escalation level); the sort key is the order's key, then the id.
 */
export const incidentListRow = (
  tenantId: string,
  scope: string,
  order: string,
  sortKey: string,
  incidentId: string,
) => ({
  PK: incidentListPk(tenantId, scope, order),
  SK: `${sortKey}#${incidentId}`,
});
export const incidentListPk = (tenantId: string, scope: string, order: string) =>
  `${tenantPk(tenantId)}#INCL#${scope}#${order}`;

/** One of the few shards of a list scope's count (the shard: by the incident id), summed on read. */
export const incidentListCount = (tenantId: string, scope: string, shard: number) => ({
  PK: `${tenantPk(tenantId)}#INCCOUNT`,
  SK: `${scope}#${shard}`,
});

/**
 * The list counts a change of an incident (its version) could not hold in its transaction, in its
 * partition: applied, and deleted, once the transaction is in (shared/db/incident-list-counts.ts).
 */
export const incidentListPendingCounts = (tenantId: string, incidentId: string, version: number) => ({
  PK: `${tenantPk(tenantId)}#INC#${incidentId}`,
  SK: `LISTCOUNTS#${String(version).padStart(10, '0')}`,
});

/** A drone dispatch of an incident, one per task (shared/db/drone-dispatches.ts), in its incident's partition. */
export const droneDispatch = (tenantId: string, incidentId: string, task: string) => ({
  PK: `${tenantPk(tenantId)}#INC#${incidentId}`,
  SK: `DRONE#${task}`,
});

/** A drone callback's `webhook-id` taken (per integration), so a replay adds nothing; kept 7 days (TTL). */
export const droneCallbackSeen = (tenantId: string, incidentId: string, integrationId: string, messageId: string) => ({
  PK: `${tenantPk(tenantId)}#INC#${incidentId}`,
  SK: `DRONECB#${integrationId}#${messageId}`,
});

/** An acknowledgement link's token, by its hash, in its incident's partition (so it opens no other). */
export const ackToken = (tenantId: string, incidentId: string, tokenHash: string) => ({
  PK: `${tenantPk(tenantId)}#INC#${incidentId}`,
  SK: `ACKTOKEN#${tokenHash}`,
});

/**
 * How a notification (by its outbox message id) went to one of its targets (`roles`,
 * `integration#<id>`, `email#<address>`), each sent with a link of its own.
 */
export const notificationDelivery = (tenantId: string, incidentId: string, messageId: string, target: string) => ({
  PK: `${tenantPk(tenantId)}#INC#${incidentId}`,
  SK: `NOTIFIED#${messageId}#${target}`,
});

/**
 * A Transcribe job still working on a voice draft's recording, and the draft it completes (two
 * drafts of one upload share the job).
 */
export const transcriptionJob = (tenantId: string, jobName: string, incidentId: string) => ({
  PK: tenantPk(tenantId),
  SK: `TRANSCRIPTION#${jobName}#${incidentId}`,
});

/** The tenant's current public reporting key (its hash), to retire it when it is rotated. */
export const publicReportKey = (tenantId: string) => ({ PK: tenantPk(tenantId), SK: 'PUBLIC_REPORT_KEY' });

/**
 * From a public reporting key's hash to its tenant. Not tenant data: an anonymous report has no
 * tenant until this lookup, and the key must not carry the tenant's id.
 */
export const publicReportKeyLookup = (keyHash: string) => ({ PK: `PUBLICKEY#${keyHash}`, SK: 'PUBLICKEY' });

/**
 * When the SLA scheduler must next look at an incident (shared/domain/incidents/sla-scheduler.ts). Not
 * tenant data: one partition for every tenant, sorted by time, so one query each minute finds
 * what is due. Written and removed only in the transactions that change the incident.
 */
export const slaTimer = (wakeAt: string, tenantId: string, incidentId: string) => ({
  PK: SLA_TIMERS_PK,
  SK: `${wakeAt}#${tenantId}#${incidentId}`,
});

/** A tenant's recent activity, newest first, kept 30 days. */
export const feed = (tenantId: string, entryId: string) => ({ PK: `${tenantPk(tenantId)}#FEED`, SK: entryId });

/** A request made with an Idempotency-Key: its body hash and, once done, its answer. */
export const idempotency = (tenantId: string, scope: string, key: string) => ({
  PK: `${tenantPk(tenantId)}#IDEMP#${scope}#${key}`,
  SK: 'IDEMPOTENCY',
});

/** Audit entries live in their own partition per tenant, sorted by their time-ordered id. */
export const audit = (tenantId: string, logId: string) => ({ PK: `${tenantPk(tenantId)}#AUDIT`, SK: logId });

/** How many audit entries a tenant wrote on one UTC day (`YYYY-MM-DD`): the lists' `total`. */
export const auditCount = (tenantId: string, day: string) => ({ PK: `${tenantPk(tenantId)}#AUDITCOUNT`, SK: day });

/** The digest of a tenant's audit entries of one hour (its start, ISO), chained to the hour's before. */
export const auditDigest = (tenantId: string, hourStart: string) => ({
  PK: `${tenantPk(tenantId)}#AUDITDIGEST`,
  SK: hourStart,
});

/** Which hour a tenant's digests have reached, and that digest's hash. */
export const auditDigestHead = (tenantId: string) => ({ PK: `${tenantPk(tenantId)}#AUDITDIGEST`, SK: 'HEAD' });

/** GSI1: a tenant's audit entries of one action (`incident.created`), newest last by id. */
export const auditByAction = (tenantId: string, action: string, logId: string) => ({
  GSI1PK: `${tenantPk(tenantId)}#AUDIT#ACTION#${action}`,
  GSI1SK: logId,
});

/** GSI2: a tenant's audit entries about one kind of resource (`incident`). */
export const auditByResourceType = (tenantId: string, resourceType: string, logId: string) => ({
  GSI2PK: `${tenantPk(tenantId)}#AUDIT#TYPE#${resourceType}`,
  GSI2SK: logId,
});

/** GSI3: a tenant's audit entries of one user (entries of the system or anonymous callers have none). */
export const auditByUser = (tenantId: string, userId: string, logId: string) => ({
  GSI3PK: `${tenantPk(tenantId)}#AUDIT#USER#${userId}`,
  GSI3SK: logId,
});

/**
 * A domain message waiting for the event bus (shared/db/outbox.ts): written in the transaction
 * of the change it announces, published from the table's stream, gone with TTL.
 */
export const outbox = (tenantId: string, messageId: string) => ({ PK: `${tenantPk(tenantId)}#OUTBOX`, SK: messageId });

/**
 * A tenant's analytics counters (shared/db/analytics.ts), in a partition of their own so the
 * tenant's main one stays light: events by scope (`all`, `env#<id>`, `zone#<id>`) and UTC day,
 * `ADD`ed per event type and hour; incidents by UTC hour of creation.
 */
export const eventCounter = (tenantId: string, scope: string, day: string) => ({
  PK: `${tenantPk(tenantId)}#STATS`,
  SK: `EV#${scope}#${day}`,
});

export const incidentCounter = (tenantId: string, hour: string) => ({
  PK: `${tenantPk(tenantId)}#STATS`,
  SK: `INC#${hour}`,
});

/**
 * What the counters hold already: an event (or the `part`th share of its counters) counted, kept
 * past the stream's 24 hours with TTL; an incident's contribution and the version it is of.
 */
export const eventCounted = (tenantId: string, eventId: string, part: number) => ({
  PK: `${tenantPk(tenantId)}#COUNTED`,
  SK: part === 0 ? `EV#${eventId}` : `EV#${eventId}#${part}`,
});

export const incidentCounted = (tenantId: string, incidentId: string) => ({
  PK: `${tenantPk(tenantId)}#COUNTED`,
  SK: `INC#${incidentId}`,
});
