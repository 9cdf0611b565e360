/**
 * Workflows: a tenant's standard operating procedures that run by themselves. A trigger (an event
 * stored, an incident changed, a schedule, or a person for a playbook), conditions in JSON Logic
 * (shared/domain/workflows/rules.ts) and ordered steps; the runner (shared/domain/workflows/runner.ts)
 * runs them. Here: the checks the schema cannot make, and their changes with audit entries.
 *
 * Checked when saved: each step takes the fields of its type only; rules use the allowed
 * operators; what a step names (an integration, a webhook subscription, a user, another workflow)
 * is the tenant's (404 otherwise, as for an unknown id); `run_workflow` steps form no cycle; a step
 * acting on an incident has one (the trigger's, a step before it that opens one, or a playbook's input).
 */
import { isNotifyKind } from '../../schemas/integrations.js';
import { auditEntry, auditPut } from '../../db/audit/index.js';
import { getIntegration } from '../../db/integrations.js';
import type { PageRequest } from '../../db/query.js';
import { ConditionFailed, retryOnConcurrentChange, transactWrite } from '../../db/transact.js';
import { getUser } from '../../db/users.js';
import { getWebhook } from '../../db/webhooks/index.js';
import {
  allWorkflows,
  deleteWorkflowItems,
  getWorkflow,
  publicWorkflow,
  putNewWorkflows,
  updateWorkflowItems,
  type StoredWorkflow,
  type Workflow,
  type WorkflowAction,
  type WorkflowTrigger,
} from '../../db/workflows.js';
import { ConflictError, invalid, NotFoundError, type Loc } from '../../errors.js';
import { newTimeId, now } from '../../ids.js';
import type { InputOf } from '../../schemas/json-schema.js';
import { ACTION_FIELDS, TRIGGER_FIELDS, type workflowCreate, type workflowUpdate } from '../../schemas/workflows.js';
import { INTEGRATION_NOT_FOUND } from '../../vocabulary/integrations.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import {
  MAX_WORKFLOWS_PER_TENANT,
  WORKFLOW_NOT_FOUND,
  type ActionType,
  type TriggerType,
} from '../../vocabulary/workflows.js';
import type { Actor } from '../actor.js';
import { diff } from '../diff.js';
import { checkRule } from './rules.js';

export type { Workflow, WorkflowAction, WorkflowTrigger } from '../../db/workflows.js';
export type WorkflowCreate = InputOf<typeof workflowCreate>;
export type WorkflowUpdate = InputOf<typeof workflowUpdate>;
export { WORKFLOW_NOT_FOUND };

const RESOURCE = 'workflow';
const USER_NOT_FOUND = 'User not found';
const WEBHOOK_NOT_FOUND = 'Webhook subscription not found';

/** Steps that act on the run's incident. */
export const INCIDENT_ACTIONS: ReadonlySet<ActionType> = new Set(['update_incident', 'escalate', 'add_note']);

function checkFields(
  value: Record<string, unknown>,
  allowed: { required: readonly string[]; optional: readonly string[] },
  always: readonly string[],
  loc: Loc,
  what: string,
): void {
  for (const field of allowed.required)
    if (value[field] === undefined) throw invalid([...loc, field], `is required for ${what}`, 'missing');
  const known = new Set([...always, ...allowed.required, ...allowed.optional]);
  for (const field of Object.keys(value))
    if (!known.has(field)) throw invalid([...loc, field], `is not a field of ${what}`, 'extra_forbidden');
}

function checkTrigger(trigger: WorkflowTrigger, loc: Loc): void {
  checkFields(trigger, TRIGGER_FIELDS[trigger.type], ['type'], loc, `a \`${trigger.type}\` trigger`);
}

/** Whether a run of this trigger has an incident from the start (an incident trigger), may have one (a playbook's input), or has none. */
const incidentAtStart = (trigger: WorkflowTrigger): 'yes' | 'maybe' | 'no' =>
  trigger.type === 'incident' ? 'yes' : trigger.type === 'manual' ? 'maybe' : 'no';

function checkActions(actions: readonly WorkflowAction[], trigger: WorkflowTrigger, loc: Loc): void {
  let hasIncident = incidentAtStart(trigger) !== 'no';
  actions.forEach((action, i) => {
    const at: Loc = [...loc, i];
    checkFields(action, ACTION_FIELDS[action.type], ['type', 'if'], at, `a \`${action.type}\` step`);
    if (action.if) checkRule(action.if, [...at, 'if']);
    if (
      action.type === 'update_incident' &&
      action.severity === undefined &&
      action.assignee_id === undefined &&
      action.status === undefined
    ) {
      throw invalid(at, 'changes nothing: give `severity`, `assignee_id` or `status`', 'missing');
    }
    if (INCIDENT_ACTIONS.has(action.type) && !hasIncident) {
      throw invalid(
        [...at, 'type'],
        `has no incident to act on: a \`${trigger.type}\` trigger brings none; open one with a \`create_incident\` step before it`,
        'value_error',
      );
    }
    if (action.type === 'create_incident') hasIncident = true;
  });
}

/** The rules and step fields, as saved (422 at the first problem). */
function checkShape(w: Pick<Workflow, 'trigger' | 'conditions' | 'actions'>): void {
  checkTrigger(w.trigger, ['body', 'trigger']);
  if (w.conditions) checkRule(w.conditions, ['body', 'conditions']);
  checkActions(w.actions, w.trigger, ['body', 'actions']);
}

/**
 * What the steps name is the tenant's: 404 as for an unknown id otherwise. A `run_workflow` step
 * names a workflow of the tenant other than this one, and the steps of all the tenant's workflows
 * (this one as it would be) form no cycle: 422 naming the loop.
 */
async function checkTargets(
  tenantId: TenantId,
  self: Pick<Workflow, 'workflow_id' | 'actions'>,
  others: readonly Workflow[],
): Promise<void> {
  const byId = new Map(others.filter((w) => w.workflow_id !== self.workflow_id).map((w) => [w.workflow_id, w]));
  for (const [i, action] of self.actions.entries()) {
    if (action.integration_id) {
      const integration = await getIntegration(tenantId, action.integration_id);
      if (!integration) throw new NotFoundError(`${INTEGRATION_NOT_FOUND} (actions[${i}].integration_id)`);
      if (!isNotifyKind(integration.kind))
        throw invalid(
          ['body', 'actions', i, 'integration_id'],
          `is a ${integration.kind} integration, which tells nobody`,
          'value_error',
        );
    }
    if (action.webhook_id && !(await getWebhook(tenantId, action.webhook_id)))
      throw new NotFoundError(`${WEBHOOK_NOT_FOUND} (actions[${i}].webhook_id)`);
    if (action.assignee_id) {
      const user = await getUser(tenantId, action.assignee_id);
      if (!user) throw new NotFoundError(`${USER_NOT_FOUND} (actions[${i}].assignee_id)`);
      if (!user.active) throw invalid(['body', 'actions', i, 'assignee_id'], 'must be an active user', 'inactive');
    }
    if (action.workflow_id && !byId.has(action.workflow_id)) {
      if (action.workflow_id === self.workflow_id)
        throw invalid(
          ['body', 'actions', i, 'workflow_id'],
          'is this workflow: a workflow may not run itself',
          'cycle',
        );
      throw new NotFoundError(`${WORKFLOW_NOT_FOUND} (actions[${i}].workflow_id)`);
    }
  }
  const cycle = cycleFrom(self, byId);
  if (cycle) {
    const i = self.actions.findIndex((a) => a.workflow_id === cycle[1]);
    throw invalid(
      ['body', 'actions', i, 'workflow_id'],
      `would make a loop of run_workflow steps: ${cycle.join(' -> ')}`,
      'cycle',
    );
  }
}

/** The first loop of `run_workflow` steps through `start`, as ids from it back to it, or null. */
function cycleFrom(
  start: Pick<Workflow, 'workflow_id' | 'actions'>,
  others: ReadonlyMap<string, Pick<Workflow, 'workflow_id' | 'actions'>>,
): string[] | null {
  const next = (w: Pick<Workflow, 'actions'>) =>
    w.actions.flatMap((a) => (a.type === 'run_workflow' && a.workflow_id ? [a.workflow_id] : []));
  const seen = new Set<string>();
  const visit = (id: string, path: string[]): string[] | null => {
    if (id === start.workflow_id) return [...path, id];
    if (seen.has(id)) return null;
    seen.add(id);
    const w = others.get(id);
    for (const child of w ? next(w) : []) {
      const found = visit(child, [...path, id]);
      if (found) return found;
    }
    return null;
  };
  for (const child of next(start)) {
    const found = visit(child, [start.workflow_id]);
    if (found) return found;
  }
  return null;
}

/** When a scheduled workflow that is on runs next; null for one that is off or not scheduled. */
export function nextRunAt(w: Pick<Workflow, 'enabled' | 'trigger'>, fromMs: number): string | null {
  if (!w.enabled || w.trigger.type !== 'schedule' || !w.trigger.every_minutes) return null;
  return new Date(fromMs + w.trigger.every_minutes * 60_000).toISOString();
}

async function findStored(tenantId: TenantId, workflowId: string): Promise<StoredWorkflow> {
  const stored = await getWorkflow(tenantId, workflowId);
  if (!stored) throw new NotFoundError(WORKFLOW_NOT_FOUND);
  return stored;
}

const limitReached = () =>
  new ConflictError(`A tenant has at most ${MAX_WORKFLOWS_PER_TENANT} workflows: delete one first`);

const audited = (
  actor: Actor,
  tenantId: TenantId,
  action: string,
  workflowId: string,
  changes: Record<string, unknown>,
) => auditPut(auditEntry(actor, { tenantId, action, resourceType: RESOURCE, resourceId: workflowId, changes }));

/** A workflow as it would be stored (checked), from what a caller or the seed gives. */
export async function newWorkflow(
  tenantId: TenantId,
  input: Omit<WorkflowCreate, 'tenant_id'>,
  existing: readonly Workflow[],
  seed?: { key: string; id: string },
): Promise<Workflow> {
  const at = now();
  const workflow: Workflow = {
    workflow_id: seed?.id ?? newTimeId(),
    tenant_id: tenantId,
    name: input.name.trim(),
    description: input.description ?? '',
    enabled: input.enabled ?? true,
    trigger: input.trigger,
    conditions: input.conditions ?? null,
    actions: input.actions,
    seed_key: seed?.key ?? null,
    next_run_at: null,
    created_at: at,
    updated_at: at,
  };
  workflow.next_run_at = nextRunAt(workflow, Date.parse(at));
  // What it names first: another tenant's id is 404 whatever else is wrong with the step.
  await checkTargets(tenantId, workflow, existing);
  checkShape(workflow);
  return workflow;
}

export async function createWorkflow(actor: Actor, tenantId: TenantId, input: WorkflowCreate): Promise<Workflow> {
  const { tenant_id: _t, ...fields } = input;
  const existing = await allWorkflows(tenantId);
  if (existing.length >= MAX_WORKFLOWS_PER_TENANT) throw limitReached();
  const workflow = await newWorkflow(tenantId, fields, existing);
  try {
    await transactWrite([
      ...putNewWorkflows(tenantId, [workflow]),
      audited(actor, tenantId, 'workflow.created', workflow.workflow_id, {
        name: workflow.name,
        enabled: workflow.enabled,
        trigger: workflow.trigger,
        steps: workflow.actions.map((a) => a.type),
      }),
    ]);
  } catch (err) {
    if (err instanceof ConditionFailed && err.index === 1) throw limitReached();
    throw err;
  }
  return workflow;
}

export async function findWorkflow(tenantId: TenantId, workflowId: string): Promise<Workflow> {
  return publicWorkflow(await findStored(tenantId, workflowId));
}

export interface WorkflowFilter {
  trigger_type?: TriggerType;
  enabled?: boolean;
}

/** The tenant's workflows that pass the filter, oldest first (one Query of at most 50), then the page. */
export async function listWorkflows(
  tenantId: TenantId,
  filter: WorkflowFilter,
  page: PageRequest,
): Promise<Workflow[]> {
  const all = (await allWorkflows(tenantId)).filter(
    (w) =>
      (filter.trigger_type === undefined || w.trigger.type === filter.trigger_type) &&
      (filter.enabled === undefined || w.enabled === filter.enabled),
  );
  return all.slice(page.offset, page.offset + page.limit).map(publicWorkflow);
}

export async function updateWorkflow(
  actor: Actor,
  tenantId: TenantId,
  workflowId: string,
  input: WorkflowUpdate,
): Promise<Workflow> {
  return retryOnConcurrentChange(async () => {
    const all = await allWorkflows(tenantId);
    const current = all.find((w) => w.workflow_id === workflowId);
    if (!current) throw new NotFoundError(WORKFLOW_NOT_FOUND);
    const at = now();
    const next: Workflow = {
      ...publicWorkflow(current),
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      ...(input.trigger !== undefined ? { trigger: input.trigger } : {}),
      ...(input.conditions !== undefined ? { conditions: input.conditions } : {}),
      ...(input.actions !== undefined ? { actions: input.actions } : {}),
      updated_at: at,
    };
    // A schedule changed or switched on starts counting now; one left alone keeps its next run.
    const scheduleChanged =
      input.trigger !== undefined || (input.enabled !== undefined && input.enabled !== current.enabled);
    next.next_run_at = scheduleChanged ? nextRunAt(next, Date.parse(at)) : current.next_run_at;
    await checkTargets(tenantId, next, all);
    checkShape(next);
    const { name, description, enabled, trigger, conditions, actions } = next;
    const changes = diff(publicWorkflow(current), { name, description, enabled, trigger, conditions, actions });
    await transactWrite([
      ...updateWorkflowItems(current, next),
      audited(actor, tenantId, 'workflow.updated', workflowId, changes),
    ]);
    return next;
  });
}

/** Switches a workflow on or off (audited as `workflow.enabled` or `workflow.disabled`). */
export async function setWorkflowEnabled(
  actor: Actor,
  tenantId: TenantId,
  workflowId: string,
  enabled: boolean,
): Promise<Workflow> {
  return retryOnConcurrentChange(async () => {
    const current = await findStored(tenantId, workflowId);
    if (current.enabled === enabled) return publicWorkflow(current);
    const at = now();
    const next: Workflow = { ...publicWorkflow(current), enabled, updated_at: at };
    next.next_run_at = nextRunAt(next, Date.parse(at));
    await transactWrite([
      ...updateWorkflowItems(current, next),
      audited(actor, tenantId, enabled ? 'workflow.enabled' : 'workflow.disabled', workflowId, {
        enabled: { from: current.enabled, to: enabled },
      }),
    ]);
    return next;
  });
}

/** Deletes a workflow that no other workflow runs (409 naming them otherwise); its runs go with their TTL. */
export async function deleteWorkflow(actor: Actor, tenantId: TenantId, workflowId: string): Promise<void> {
  await retryOnConcurrentChange(async () => {
    const all = await allWorkflows(tenantId);
    const current = all.find((w) => w.workflow_id === workflowId);
    if (!current) throw new NotFoundError(WORKFLOW_NOT_FOUND);
    const callers = all.filter(
      (w) =>
        w.workflow_id !== workflowId &&
        w.actions.some((a) => a.type === 'run_workflow' && a.workflow_id === workflowId),
    );
    if (callers.length > 0)
      throw new ConflictError(
        `Workflow ${callers.map((w) => `"${w.name}"`).join(', ')} runs this one: change ${callers.length > 1 ? 'them' : 'it'} first`,
      );
    await transactWrite([
      ...deleteWorkflowItems(current),
      audited(actor, tenantId, 'workflow.deleted', workflowId, { name: current.name }),
    ]);
  });
}
