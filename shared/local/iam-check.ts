/**
 * IAM, as far as the local runtime can have it: every AWS SDK call made while a route or a worker
 * runs in the local runtime is checked against that function's `grants` (shared/iam.ts, the very
 * list the CDK turns into its role's statements) and refused with AccessDeniedException when the
 * role in AWS would refuse it. The stand-ins check no permissions themselves, so without this a
 * missing grant shows only in AWS.
 *
 * Calls made outside a function (bootstrap, tests calling domain code directly) are not checked.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  allowedActions,
  fencedToPlatform,
  HEARTBEAT_ACTIONS,
  ownRoleAllowsObjects,
  ownRoleAllowsTable,
  tenantDataAllowsObjects,
  tenantDataAllowsTable,
  tenantSessionPolicy,
  workerFencedToPlatform,
  type Allowed,
} from '../iam.js';
import { requestPartitions, tableCallScope } from '../db/request-keys.js';
import { bucketCallScope, objectKeysOf } from '../adapters/object-keys.js';
import type { RouteDef, RouteGrants } from '../routes/types.js';
import type { WorkerDef } from '../workers.js';
import { RATE_PK_PREFIX } from '../db/keys.js';
import { setPort } from '../runtime-ports.js';

interface Running {
  /** The route or worker id, for the message. */
  who: string;
  grants: RouteGrants;
  allowed: Allowed;
  /** The queue its trigger reads, if any. */
  consumes?: string;
  /** Its own role reaches platform partitions and objects only (shared/iam.ts `fencedToPlatform`). */
  fenced?: boolean;
}

const current = new AsyncLocalStorage<Running>();

/** Runs `work` as the function `who` with these grants: its SDK calls are checked. */
export function runAs<T>(
  who: string,
  grants: RouteGrants,
  counters: readonly string[],
  work: () => T,
  consumes?: string,
  fenced?: boolean,
): T {
  return current.run({ who, grants, allowed: allowedActions(grants, counters), consumes, fenced }, work);
}

/**
 * Runs `work` as `worker`'s function (a queue worker's, reading `consumes`): its grants and its
 * heartbeat, its own role fenced if it acts on tenant data (shared/iam.ts `workerFencedToPlatform`).
 */
export function runAsWorker<T>(worker: WorkerDef, work: () => T, consumes?: string): T {
  return runAs(worker.id, worker.grants, HEARTBEAT_ACTIONS, work, consumes, workerFencedToPlatform(worker));
}

/**
 * The session policy of the function running (what the stack gives a worker as
 * TENANT_SESSION_POLICY: shared/adapters/tenant-credentials.ts); outside a function, where nothing
 * is checked, the TenantData role's whole.
 */
export function runningSessionPolicy(): string {
  return tenantSessionPolicy(current.getStore()?.grants ?? { table: 'write', bucket: 'write' });
}

/** Runs `work` as the function of `route`: its grants, and its own role fenced if it serves a tenant route. */
export function runAsRoute<T>(route: RouteDef, counters: readonly string[], work: () => T): T {
  return runAs(route.id, route.grants, counters, work, undefined, fencedToPlatform(route));
}

/**
 * Runs `work` as AWS itself rather than as a function: what an EventBridge rule does with its own
 * permissions (putting an event on a queue), though the local bus calls it from the publisher.
 */
export function asService<T>(work: () => T): T {
  return current.exit(work);
}

export class LocalAccessDenied extends Error {
  override readonly name = 'AccessDeniedException';
}

/**
 * For a local stand-in that is no SDK client (the secret box for KMS, the queues for SQS): checks
 * one action, on `resource` where the grant names resources (a queue).
 */
export function checkAction(action: string, resource?: string): void {
  const running = current.getStore();
  if (running && !permits(running.allowed, action, undefined, resource)) {
    throw new LocalAccessDenied(
      `${running.who} is not allowed to perform ${action}${resource ? ` on ${resource}` : ''}: its grants in the route or worker table do not allow it (shared/iam.ts)`,
    );
  }
}

/**
 * The consumer's own calls on the queue its trigger reads (in AWS the event source mapping's
 * grant): allowed to the worker reading `queue` only.
 */
export function checkConsumer(queue: string): void {
  const running = current.getStore();
  if (running && running.consumes !== queue) {
    throw new LocalAccessDenied(
      `${running.who} is not allowed to perform sqs:ChangeMessageVisibility on ${queue}: only the worker reading that queue is`,
    );
  }
}

type Input = Record<string, unknown>;

/** The document client's command names (and the low-level ones) as IAM actions. */
const DYNAMODB: Record<string, string> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  Query: 'Query',
  Scan: 'Scan',
  BatchGet: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
  TransactGet: 'TransactGetItems',
  TransactWrite: 'TransactWriteItems',
};

const partitionOf = (key: unknown): string | undefined => {
  const pk = (key as { PK?: unknown } | undefined)?.PK;
  return typeof pk === 'string' ? pk : ((pk as { S?: string } | undefined)?.S ?? undefined);
};

/** The IAM actions (with the partition each touches) one DynamoDB call needs. */
function dynamodbActions(command: string, input: Input): { action: string; pk?: string }[] {
  const name = command.replace(/Command$/, '');
  const action = DYNAMODB[name] ?? name;
  if (action === 'TransactWriteItems') {
    // Checked per item, as IAM does.
    return ((input.TransactItems ?? []) as Input[]).flatMap((item) => {
      const [kind, body] = Object.entries(item)[0] as [string, Input];
      const perItem =
        { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' }[kind] ??
        kind;
      return [{ action: `dynamodb:${perItem}`, pk: partitionOf(body.Key ?? body.Item) }];
    });
  }
  if (action === 'TransactGetItems') return [{ action: 'dynamodb:GetItem' }];
  return [{ action: `dynamodb:${action}`, pk: partitionOf(input.Key ?? input.Item) }];
}

const S3: Record<string, string[]> = {
  GetObject: ['s3:GetObject'],
  HeadObject: ['s3:GetObject'],
  PutObject: ['s3:PutObject'],
  CopyObject: ['s3:GetObject', 's3:PutObject'],
  DeleteObject: ['s3:DeleteObject'],
  DeleteObjects: ['s3:DeleteObject'],
  CreateMultipartUpload: ['s3:PutObject'],
  UploadPart: ['s3:PutObject'],
  CompleteMultipartUpload: ['s3:PutObject'],
  AbortMultipartUpload: ['s3:AbortMultipartUpload'],
  ListObjectsV2: ['s3:ListBucket'],
  ListObjects: ['s3:ListBucket'],
  HeadBucket: ['s3:ListBucket'],
};

function permits(allowed: Allowed, action: string, pk: string | undefined, resource?: string): boolean {
  const [service] = action.split(':');
  if (service === 'sqs') {
    if (resource === undefined) return false;
    if (action === 'sqs:SendMessage') return allowed.queues.includes(resource);
    return action === 'sqs:GetQueueAttributes' && allowed.queueDepths.includes(resource);
  }
  if (service === 'dynamodb') {
    if (allowed.table.includes(action)) return true;
    return allowed.rateCounters.includes(action) && Boolean(pk?.startsWith(RATE_PK_PREFIX));
  }
  if (service === 's3') return allowed.bucket.includes(action) || allowed.objects.includes(action);
  if (service === 'cognito-idp') return allowed.userPool.includes(action);
  return allowed.other.includes(action);
}

/** The actions a call needs, by the client's service. */
function actionsOf(service: string, command: string, input: Input): { action: string; pk?: string }[] {
  const name = command.replace(/Command$/, '');
  if (service === 'dynamodb') return dynamodbActions(command, input);
  if (service === 's3') return (S3[name] ?? [`s3:${name}`]).map((action) => ({ action }));
  return [{ action: `${service}:${name}` }];
}

/**
 * A call made with a tenant's credentials (shared/tenant-scope.ts: the handler chain decided the
 * tenant; shared/db/request-keys.ts and shared/adapters/object-keys.ts chose them for this call) is
 * evaluated against the TenantData role's policy with that tenant (shared/iam.ts), as IAM would:
 * every partition it names must lead with the tenant's, every object be under its prefixes.
 */
function checkTenantData(service: string, command: string, input: Input, running: Running | undefined): void {
  const scope =
    service === 'dynamodb'
      ? tableCallScope(command, input)
      : service === 's3'
        ? bucketCallScope(command, input)
        : undefined;
  if (!scope) {
    checkOwnRole(service, command, input, running);
    return;
  }
  const tenant = scope.tenantId;
  for (const { action } of actionsOf(service, command, input)) {
    const ok =
      service === 'dynamodb'
        ? tenantDataAllowsTable(tenant, action, requestPartitions(command, input))
        : tenantDataAllowsObjects(tenant, action, objectKeysOf(input));
    if (!ok) {
      throw new LocalAccessDenied(
        `the credentials of tenant ${tenant} are not allowed to perform ${action} on ${named(service, command, input)}: the TenantData role's policy (shared/iam.ts) allows only that tenant's`,
      );
    }
  }
}

const named = (service: string, command: string, input: Input): string =>
  service === 'dynamodb'
    ? `partitions ${JSON.stringify(requestPartitions(command, input))}`
    : `objects ${JSON.stringify(objectKeysOf(input))}`;

/**
 * A call made with the function's own role, by a function that serves a tenant route: its
 * statements carry the platform condition (lib/grants.ts), so a key of any tenant is refused.
 */
function checkOwnRole(service: string, command: string, input: Input, running: Running | undefined): void {
  if (!running?.fenced || (service !== 'dynamodb' && service !== 's3')) return;
  const ok =
    service === 'dynamodb'
      ? ownRoleAllowsTable(requestPartitions(command, input))
      : ownRoleAllowsObjects(objectKeysOf(input));
  if (!ok) {
    throw new LocalAccessDenied(
      `${running.who}'s own role is not allowed to perform ${command.replace(/Command$/, '')} on ${named(service, command, input)}: it reaches platform partitions and objects only; a tenant's data needs that tenant's credentials (shared/tenant-scope.ts)`,
    );
  }
}

interface SdkClient {
  middlewareStack: { add: (middleware: unknown, options: { step: string; name: string }) => void };
}

const installed = new WeakSet<object>();

/**
 * Adds the check to an SDK client (once). `service` is the IAM service prefix: dynamodb, s3,
 * cognito-idp, events, transcribe, bedrock.
 */
export function checkCallsOf(client: SdkClient, service: string): void {
  if (installed.has(client)) return;
  installed.add(client);
  client.middlewareStack.add(
    (next: (args: { input: Input }) => Promise<unknown>, context: { commandName?: string }) =>
      async (args: { input: Input }) => {
        const running = current.getStore();
        checkTenantData(service, context.commandName ?? 'Unknown', args.input, running);
        if (running) {
          for (const { action, pk } of actionsOf(service, context.commandName ?? 'Unknown', args.input)) {
            if (!permits(running.allowed, action, pk)) {
              throw new LocalAccessDenied(
                `${running.who} is not allowed to perform ${action}${pk ? ` on partition ${pk}` : ''}: its grants in the route or worker table do not allow it (shared/iam.ts)`,
              );
            }
          }
        }
        return next(args);
      },
    { step: 'initialize', name: 'gatehouseLocalIamCheck' },
  );
}

/**
 * Checks the calls of the clients the handlers share (the table, the files bucket, the user
 * pool): those of the sources, imported here (late: they read shared/config.ts, which needs the
 * local env in place), and every one made later, such as each bundle's own copy when the local
 * server serves the bundles (shared/runtime-ports.ts).
 */
export async function checkSharedClients(): Promise<void> {
  setPort('sdkClientMade', (client: object, service: string) => checkCallsOf(client as SdkClient, service));
  const [{ db }, { s3 }, { client: cognito }] = await Promise.all([
    import('../db/client.js'),
    import('../adapters/s3.js'),
    import('../adapters/cognito.js'),
  ]);
  checkCallsOf(db as unknown as SdkClient, 'dynamodb');
  checkCallsOf(s3 as unknown as SdkClient, 's3');
  checkCallsOf(cognito as unknown as SdkClient, 'cognito-idp');
}
