/**
 * What a function's `grants` (route table, worker table) allow, as IAM action names: the single
 * list that lib/grants.ts turns into IAM statements and that the local runtime enforces on every
 * AWS SDK call a route or worker makes (shared/local/iam-check.ts), so a missing grant fails the
 * tests instead of the first call in AWS.
 */
import { isPlatformPartition, stringLike, TENANT_SESSION_PLATFORM_PARTITIONS, tenantPk } from './db/keys.js';
import { PLATFORM_OBJECT_PREFIXES } from './adapters/object-keys.js';
import type { RouteDef, RouteGrants } from './routes/types.js';

// No Scan: the data model serves every access pattern by key or index (docs/data-model.md).
// Transactions need no action of their own: TransactWriteItems checks Put/Update/Delete/
// ConditionCheckItem per item, TransactGetItems checks GetItem.
export const TABLE_READ = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
] as const;
export const TABLE_WRITE = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
] as const;

// ListBucket also authorises HeadBucket, which the health check uses.
export const BUCKET_READ = ['s3:ListBucket'] as const;
export const OBJECT_READ = ['s3:GetObject'] as const;
export const OBJECT_WRITE = ['s3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'] as const;

export const TRANSCRIBE_READ = ['transcribe:GetTranscriptionJob'] as const;
export const TRANSCRIBE_WRITE = ['transcribe:StartTranscriptionJob', ...TRANSCRIBE_READ] as const;

export const EVENT_BUS_WRITE = ['events:PutEvents'] as const;
export const MODEL_INVOKE = ['bedrock:InvokeModel'] as const;
export const SECRETS_SEAL = ['kms:Encrypt'] as const;
export const SECRETS_OPEN = ['kms:Decrypt'] as const;
/** On the audit key: a function that writes audit entries seals them; the verifier checks seals. */
export const AUDIT_SEAL = ['kms:GenerateMac'] as const;
export const AUDIT_VERIFY = ['kms:VerifyMac'] as const;
export const EMAIL_SEND = ['ses:SendEmail'] as const;
export const QUEUE_SEND = ['sqs:SendMessage'] as const;
/** Connectors' schedules, in their group; PassRole hands Scheduler its role (lib/connector-schedules.ts). */
export const SCHEDULES_MANAGE = [
  'scheduler:CreateSchedule',
  'scheduler:UpdateSchedule',
  'scheduler:DeleteSchedule',
  'iam:PassRole',
] as const;
export const LAKE_CATALOG = ['glue:CreateDatabase', 'glue:CreateTable', 'glue:UpdateTable'] as const;
/** The query route's own: it assumes the lake query role, narrowed to the caller's tenant, and runs Athena as that. */
export const LAKE_QUERY = ['sts:AssumeRole'] as const;
/** What the tenant-scoped session of the lake query role does (its policy: lib/data-lake.ts). */
export const LAKE_SESSION = [
  'athena:StartQueryExecution',
  'athena:GetQueryExecution',
  'athena:GetQueryResults',
  'athena:StopQueryExecution',
] as const;

/**
 * A worker's heartbeat, written after each invocation (shared/db/heartbeats.ts): one UpdateItem on
 * the counters' partitions, so even a worker without table access (the stream publisher) has it.
 */
export const HEARTBEAT_ACTIONS = ['dynamodb:UpdateItem'] as const;

export const QUEUE_DEPTH = ['sqs:GetQueueAttributes'] as const;

/** A tenant's minute, counted on every authenticated call: one UpdateItem. */
export const TENANT_METER_ACTIONS = ['dynamodb:UpdateItem'] as const;
/** A public route's per-IP sliding window: the caller's log read, then a conditional PutItem. */
export const IP_WINDOW_ACTIONS = ['dynamodb:GetItem', 'dynamodb:PutItem'] as const;

/**
 * What the handler chain does on the rate counters' partitions (`RATE#...`) for this route: the
 * tenant's minute for every authenticated call, the per-IP window of a route with a `rateLimit`;
 * a developer route's windows (an UpdateItem to count, a GetItem to show one) and the per-IP
 * window of its unauthenticated calls.
 */
export function counterActions(route: Pick<RouteDef, 'access' | 'rateLimit' | 'developer'>): readonly string[] {
  return [
    ...(route.access !== 'public' ? TENANT_METER_ACTIONS : []),
    ...(route.rateLimit || route.developer ? IP_WINDOW_ACTIONS : []),
  ];
}

export interface Allowed {
  table: readonly string[];
  bucket: readonly string[];
  objects: readonly string[];
  userPool: readonly string[];
  other: readonly string[];
  /** The queues (and dead-letter queues, `<id>:dead-letters`) it may send to: QUEUE_SEND on each. */
  queues: readonly string[];
  /** The queues and dead-letter queues whose depth it may read: QUEUE_DEPTH on each. */
  queueDepths: readonly string[];
  /** Actions allowed on the rate counters' partitions only, beyond what `table` allows everywhere. */
  rateCounters: readonly string[];
}

export function allowedActions(grants: RouteGrants, counters: readonly string[] = []): Allowed {
  const table = grants.table === 'write' ? [...TABLE_READ, ...TABLE_WRITE] : grants.table === 'read' ? TABLE_READ : [];
  return {
    table,
    bucket: grants.bucket ? BUCKET_READ : [],
    objects:
      grants.bucket === 'write' ? [...OBJECT_READ, ...OBJECT_WRITE] : grants.bucket === 'read' ? OBJECT_READ : [],
    userPool: grants.userPool ?? [],
    other: [
      ...(grants.eventBus ? EVENT_BUS_WRITE : []),
      ...(grants.speech === 'write' ? TRANSCRIBE_WRITE : grants.speech === 'read' ? TRANSCRIBE_READ : []),
      ...(grants.ai ? MODEL_INVOKE : []),
      ...(grants.secrets === 'seal' || grants.secrets === 'both' ? SECRETS_SEAL : []),
      ...(grants.secrets === 'open' || grants.secrets === 'both' ? SECRETS_OPEN : []),
      ...(grants.audit === 'seal' ? AUDIT_SEAL : []),
      ...(grants.audit === 'verify' ? AUDIT_VERIFY : []),
      ...(grants.email ? EMAIL_SEND : []),
      ...(grants.schedules ? SCHEDULES_MANAGE : []),
      ...(grants.lake === 'catalog' ? LAKE_CATALOG : grants.lake === 'query' ? LAKE_QUERY : []),
    ],
    queues: Object.entries(grants.queues ?? {}).flatMap(([queue, to]) =>
      to === 'depth' ? [] : [to === 'dead-letters' ? `${queue}:dead-letters` : queue],
    ),
    queueDepths: Object.entries(grants.queues ?? {}).flatMap(([queue, to]) =>
      to === 'depth' ? [queue, `${queue}:dead-letters`] : [],
    ),
    rateCounters: counters.filter((a) => !(table as readonly string[]).includes(a)),
  };
}

/**
 * The TenantData role (lib/tenant-data.ts), assumed with the session tag `tenant_id` for the calls
 * on one tenant's data (docs/architecture.md, 27): the one definition lib/tenant-data.ts turns into
 * its policy (with `${aws:PrincipalTag/tenant_id}` for `tenant`) and the local IAM check evaluates
 * (with the tenant's id). Every item and Query it names must lead with these partitions
 * (`ForAllValues:StringLike` on `dynamodb:LeadingKeys`), every object be under these prefixes.
 */
export const TENANT_DATA_TABLE_ACTIONS = [
  ...TABLE_READ.filter((a) => a !== 'dynamodb:DescribeTable'),
  ...TABLE_WRITE,
] as readonly string[];
export const TENANT_DATA_OBJECT_ACTIONS = [...OBJECT_READ, ...OBJECT_WRITE] as readonly string[];
export const TENANT_DATA_BUCKET_ACTIONS = BUCKET_READ as readonly string[];

/** The partitions a tenant's credentials reach: its own, and the platform ones its transactions write. */
export const tenantLeadingKeys = (tenant: string): string[] => [
  tenantPk(tenant),
  `${tenantPk(tenant)}#*`,
  ...TENANT_SESSION_PLATFORM_PARTITIONS,
];

/**
 * Where a tenant's objects are in the files bucket, as IAM `StringLike` patterns: its files and
 * recordings, its telemetry, its data lake files and its connectors' lake export state.
 */
export const tenantObjectPatterns = (tenant: string): string[] => [
  `tenants/${tenant}/*`,
  `telemetry/${tenant}/*`,
  `lake/*/tenant_id=${tenant}/*`,
  `lake-state/connectors/${tenant}/*`,
];

/**
 * What IAM answers for a call made with `tenant`'s credentials: the action is one the role allows
 * and every partition the call names (shared/db/request-keys.ts; `null`, a call that names
 * partitions it cannot tell, matches none) leads with one of the tenant's.
 */
export function tenantDataAllowsTable(tenant: string, action: string, partitions: readonly string[] | null): boolean {
  if (!TENANT_DATA_TABLE_ACTIONS.includes(action) || partitions === null) return false;
  const allowed = tenantLeadingKeys(tenant);
  return partitions.every((pk) => allowed.some((pattern) => stringLike(pattern, pk)));
}

/** The same for the objects (keys) or a listing (its prefix) of the files bucket. */
export function tenantDataAllowsObjects(tenant: string, action: string, keys: readonly string[]): boolean {
  const actions = action === 's3:ListBucket' ? TENANT_DATA_BUCKET_ACTIONS : TENANT_DATA_OBJECT_ACTIONS;
  if (!actions.includes(action) || keys.length === 0) return false;
  const allowed = tenantObjectPatterns(tenant);
  return keys.every((key) => allowed.some((pattern) => stringLike(pattern, key)));
}

/**
 * The session policy a route's function passes when it assumes the TenantData role: the route's
 * own table and bucket actions, so a session is never more than the route's grants (the role's
 * policy fences the tenant; the two intersect). A route without either grant makes no such call
 * and assumes nothing.
 */
export function tenantSessionPolicy(grants: RouteGrants): string {
  const allowed = allowedActions(grants);
  const actions = [
    ...allowed.table.filter((a) => TENANT_DATA_TABLE_ACTIONS.includes(a)),
    ...allowed.objects,
    ...allowed.bucket,
  ];
  return JSON.stringify({
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Action: actions, Resource: '*' }],
  });
}

/**
 * Whether a route's function serves one tenant's data, so its own role is fenced to the platform
 * (docs/architecture.md, 27): every route whose tenant the chain decides (from the credential,
 * the path, the query, the body, or a batch's sender) or the function finds (`found`), on the
 * table or the bucket. Its calls on that tenant's data run with the TenantData role; what its own
 * role keeps is below. A route with no tenant (`none`: registration, the tenant directory's
 * SUPER_ADMIN routes, the live stream, health) is a platform function, listed in the docs.
 */
export const fencedToPlatform = (route: Pick<RouteDef, 'tenant' | 'grants'>): boolean =>
  route.tenant !== 'none' && Boolean(route.grants.table || route.grants.bucket);

/**
 * The workers that act on the platform by nature, with no tenant's data reachable by their own
 * role needed: none so far (docs/architecture.md, 27 lists them with why).
 */
export const PLATFORM_WORKERS: readonly string[] = [];

/**
 * Whether a worker's own role is fenced to the platform (docs/architecture.md, 27): every worker on
 * the table or the bucket, but PLATFORM_WORKERS. Its calls on a tenant's data run as that tenant
 * (shared/worker-handler.ts: a stream batch's records per tenant, a queue's or a sweep's calls each
 * as the tenant its keys name).
 */
export const workerFencedToPlatform = (worker: { id: string; grants: RouteGrants }): boolean =>
  Boolean(worker.grants.table || worker.grants.bucket) && !PLATFORM_WORKERS.includes(worker.id);

/**
 * What a fenced function's own role may name in the table: platform partitions only
 * (shared/db/keys.ts PLATFORM_PARTITIONS), the `dynamodb:LeadingKeys` condition of its statements.
 * A call naming no partition (DescribeTable) passes, as `ForAllValues` does; no Scan is granted.
 */
export const ownRoleAllowsTable = (partitions: readonly string[] | null): boolean =>
  partitions !== null && partitions.every(isPlatformPartition);

/** The objects a fenced function's own role may name: the platform's (`feeds/`), as `StringLike` patterns. */
export const OWN_ROLE_OBJECT_PATTERNS = PLATFORM_OBJECT_PREFIXES.map((prefix) => `${prefix}*`);

/** The same for the bucket: every key (or listing prefix) under a platform prefix, and at least one. */
export const ownRoleAllowsObjects = (keys: readonly string[]): boolean =>
  keys.length > 0 && keys.every((key) => OWN_ROLE_OBJECT_PATTERNS.some((pattern) => stringLike(pattern, key)));
