/**
 * Workflows, their runs and their timers in the single table.
 * - A workflow: one item in the tenant's partition (`WORKFLOW#<id>`), at most 50 a tenant
 *   (shared/db/counted-items.ts): the runner reads all of a tenant's in one consistent Query.
 * - A run: one item in its workflow's runs partition (`T#tid#WFRUNS#<workflow id>`), by its
 *   time-ordered id, with its steps embedded; made with a condition that it is new (a redelivered
 *   trigger finds it), each change conditioned on the version read; gone after 90 days (TTL).
 * - A timer: one item in the `WFTIMERS` partition by the time it is due, for a run waiting out a
 *   `wait` step or a scheduled workflow's next start; written in the transaction that makes it due.
 */
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Infer } from '../schemas/json-schema.js';
import type { workflowAction, workflowTrigger } from '../schemas/workflows.js';
import type { TenantId } from '../vocabulary/tenant.js';
import {
  MAX_WORKFLOWS_PER_TENANT,
  RUN_RETENTION_DAYS,
  type RunStatus,
  type StepStatus,
} from '../vocabulary/workflows.js';
import { db, TABLE } from './client.js';
import { deleteCounted, getCounted, putNewCountedMany, type CountedKind } from './counted-items.js';
import { pick, versionedUpdate } from './items.js';
import * as keys from './item-keys.js';
import { WORKFLOW_TIMERS_PK } from './keys.js';
import { queryPage, type PageRequest } from './query.js';
import { TABLE_KEYS } from './table.js';
import { dueItems } from './timers.js';
import { ConditionFailed, transactWrite, type TransactItem } from './transact.js';

export type WorkflowTrigger = Infer<typeof workflowTrigger>;
export type WorkflowAction = Infer<typeof workflowAction>;

export interface Workflow {
  workflow_id: string;
  tenant_id: TenantId;
  name: string;
  description: string;
  enabled: boolean;
  trigger: WorkflowTrigger;
  /** JSON Logic over the triggering data; null: always. */
  conditions: Record<string, unknown> | null;
  actions: WorkflowAction[];
  seed_key: string | null;
  /** A scheduled workflow that is on: when its timer starts it next. */
  next_run_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface StoredWorkflow extends Workflow {
  version: number;
}

const KIND: CountedKind = {
  entity: 'WORKFLOW',
  prefix: 'WORKFLOW#',
  item: keys.workflow,
  count: keys.workflowCount,
  limit: MAX_WORKFLOWS_PER_TENANT,
};

const WORKFLOW_FIELDS = [
  'workflow_id',
  'tenant_id',
  'name',
  'description',
  'enabled',
  'trigger',
  'conditions',
  'actions',
  'seed_key',
  'next_run_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof Workflow)[];

const workflowFrom = (item: Record<string, unknown>): StoredWorkflow =>
  pick<StoredWorkflow>(item, [...WORKFLOW_FIELDS, 'version']);

/** What a workflow shows: an allowlist, so `version` is never answered. */
export const publicWorkflow = (w: Workflow | StoredWorkflow): Workflow => pick<Workflow>({ ...w }, WORKFLOW_FIELDS);

export async function getWorkflow(tenantId: TenantId, workflowId: string): Promise<StoredWorkflow | null> {
  const item = await getCounted(KIND, tenantId, workflowId);
  return item ? workflowFrom(item) : null;
}

/** Every workflow of the tenant, oldest first: one consistent Query (at most 50 items). */
export async function allWorkflows(tenantId: TenantId): Promise<StoredWorkflow[]> {
  const items = await queryPage(
    { pk: keys.workflow(tenantId, '').PK, skPrefix: KIND.prefix, consistent: true },
    { limit: KIND.limit, offset: 0 },
  );
  return items
    .map(workflowFrom)
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.workflow_id.localeCompare(b.workflow_id));
}

/** New workflows (with the count's step: item `created.length` holds the tenant's limit) and their timers. */
export function putNewWorkflows(tenantId: TenantId, created: readonly Workflow[]): TransactItem[] {
  return [
    ...putNewCountedMany(
      KIND,
      tenantId,
      created.map((w) => ({ id: w.workflow_id, fields: { ...w } })),
    ),
    ...created.flatMap((w) =>
      w.next_run_at
        ? [
            putTimer({
              kind: 'schedule',
              wake_at: w.next_run_at,
              tenant_id: tenantId,
              workflow_id: w.workflow_id,
              run_id: null,
            }),
          ]
        : [],
    ),
  ];
}

/** The workflow's change (item 0, conditioned on `before`'s version) and the move of its schedule timer. */
export function updateWorkflowItems(before: StoredWorkflow, next: Workflow): TransactItem[] {
  const { workflow_id: _id, tenant_id: _t, created_at: _c, seed_key: _s, ...fields } = publicWorkflow(next);
  return [
    versionedUpdate(keys.workflow(before.tenant_id, before.workflow_id), fields, before.version),
    ...scheduleTimerMove(before, next),
  ];
}

export function deleteWorkflowItems(before: StoredWorkflow): TransactItem[] {
  return [
    ...deleteCounted(KIND, before.tenant_id, before.workflow_id, before.version),
    ...scheduleTimerMove(before, null),
  ];
}

function scheduleTimerMove(before: Workflow, next: Workflow | null): TransactItem[] {
  if (before.next_run_at === (next?.next_run_at ?? null)) return [];
  const timer = (w: Workflow): WorkflowTimer => ({
    kind: 'schedule',
    wake_at: w.next_run_at!,
    tenant_id: w.tenant_id,
    workflow_id: w.workflow_id,
    run_id: null,
  });
  return [
    ...(before.next_run_at ? [deleteTimer(timer(before))] : []),
    ...(next?.next_run_at ? [putTimer(timer(next))] : []),
  ];
}

// ---------------------------------------------------------------------------------------------
// Runs

export interface RunStep {
  index: number;
  type: string;
  status: StepStatus;
  attempts: number;
  started_at: string | null;
  ended_at: string | null;
  result: Record<string, unknown> | null;
  error: string | null;
}

export interface WorkflowRun {
  run_id: string;
  workflow_id: string;
  tenant_id: TenantId;
  status: RunStatus;
  trigger: { type: string; message_id: string | null; by: string | null };
  incident_id: string | null;
  event_id: string | null;
  input: Record<string, unknown>;
  steps: RunStep[];
  resume_at: string | null;
  error: string | null;
  started_at: string;
  ended_at: string | null;
  /** Not shown: the step to do next. */
  next_step: number;
  /** Not shown: the event as the trigger carried it, for the rules (`event.*`). */
  event: Record<string, unknown> | null;
  /** Not shown: how many runs started this one through `run_workflow` steps. */
  depth: number;
  /** Not shown: the steps as the workflow had them when the run started (an edit does not change a run under way). */
  actions: WorkflowAction[];
  workflow_name: string;
  /** Not shown: until when a runner works on it (another leaves it alone); null when none does. */
  lease_until: string | null;
}

export interface StoredRun extends WorkflowRun {
  version: number;
}

const RUN_FIELDS = [
  'run_id',
  'workflow_id',
  'tenant_id',
  'status',
  'trigger',
  'incident_id',
  'event_id',
  'input',
  'steps',
  'resume_at',
  'error',
  'started_at',
  'ended_at',
] as const;

export type PublicRun = Pick<WorkflowRun, (typeof RUN_FIELDS)[number]>;

export const publicRun = (run: WorkflowRun): PublicRun => pick<PublicRun>({ ...run }, RUN_FIELDS);

const runFrom = (item: Record<string, unknown>): StoredRun =>
  pick<StoredRun>(item, [
    ...RUN_FIELDS,
    'next_step',
    'event',
    'depth',
    'actions',
    'workflow_name',
    'lease_until',
    'version',
  ]);

const runKey = (run: Pick<WorkflowRun, 'tenant_id' | 'workflow_id' | 'run_id'>) =>
  keys.workflowRun(run.tenant_id, run.workflow_id, run.run_id);

const expiresAt = (startedAt: string) => Math.floor(Date.parse(startedAt) / 1000) + RUN_RETENTION_DAYS * 86_400;

/** The run, when it is new; false when a run of that id exists (a redelivered trigger). */
export async function putNewRun(run: WorkflowRun): Promise<boolean> {
  try {
    await transactWrite([putNewRunItem(run)]);
    return true;
  } catch (err) {
    if (err instanceof ConditionFailed) return false;
    throw err;
  }
}

export function putNewRunItem(run: WorkflowRun): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: {
        ...runKey(run),
        entity: 'WORKFLOW_RUN',
        ...run,
        version: 1,
        [TABLE_KEYS.ttlAttribute]: expiresAt(run.started_at),
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/** The run as it is now, replacing the one read at `expectedVersion` (and nothing else changed it since). */
export function saveRunItem(run: StoredRun): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: {
        ...runKey(run),
        entity: 'WORKFLOW_RUN',
        ...run,
        version: run.version + 1,
        [TABLE_KEYS.ttlAttribute]: expiresAt(run.started_at),
      },
      ConditionExpression: '#version = :expected',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':expected': run.version },
    },
  };
}

export async function getRun(tenantId: TenantId, workflowId: string, runId: string): Promise<StoredRun | null> {
  const out = await db.send(
    new GetCommand({ TableName: TABLE, Key: keys.workflowRun(tenantId, workflowId, runId), ConsistentRead: true }),
  );
  return out.Item ? runFrom(out.Item) : null;
}

/** A page of the workflow's runs, newest first, of one status when given (filtered on the key range). */
export async function listRuns(
  tenantId: TenantId,
  workflowId: string,
  status: RunStatus | undefined,
  page: PageRequest,
): Promise<StoredRun[]> {
  const items = await queryPage(
    { pk: keys.workflowRun(tenantId, workflowId, '').PK, ascending: false, filter: { status } },
    page,
  );
  return items.map(runFrom);
}

// ---------------------------------------------------------------------------------------------
// Timers

export interface WorkflowTimer {
  /** `resume`: a run waiting out a `wait` step; `schedule`: a scheduled workflow's next start. */
  kind: 'resume' | 'schedule';
  wake_at: string;
  tenant_id: TenantId;
  workflow_id: string;
  run_id: string | null;
}

const timerKey = (t: WorkflowTimer) =>
  keys.workflowTimer(t.wake_at, t.tenant_id, t.run_id ?? `SCHEDULE#${t.workflow_id}`);

/** Unconditional: the same timer written twice is one timer. */
export function putTimer(t: WorkflowTimer): TransactItem {
  return { Put: { TableName: TABLE, Item: { ...timerKey(t), entity: 'WORKFLOW_TIMER', ...t } } };
}

export function deleteTimer(t: WorkflowTimer): TransactItem {
  return { Delete: { TableName: TABLE, Key: timerKey(t) } };
}

/** Removes a timer once acted on (it may be gone already). */
export async function removeTimer(t: WorkflowTimer): Promise<void> {
  await db.send(new DeleteCommand({ TableName: TABLE, Key: timerKey(t) }));
}

/** Up to `limit` timers due at or before `at`, earliest first, after `after` (the last of the previous page). */
export async function dueTimers(at: string, limit: number, after?: WorkflowTimer): Promise<WorkflowTimer[]> {
  const items = await dueItems(WORKFLOW_TIMERS_PK, at, limit, after ? timerKey(after) : undefined);
  return items.map((i) => pick<WorkflowTimer>(i, ['kind', 'wake_at', 'tenant_id', 'workflow_id', 'run_id']));
}
