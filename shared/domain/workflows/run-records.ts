/**
 * Workflow runs as records: how one is made, queued for the runner, started by a person (a
 * playbook) and read. Kept apart from the runner (shared/domain/workflows/runner.ts), so the routes
 * that read runs or start a playbook do not carry every step's operations.
 */
import { queues } from '../../adapters/queue.js';
import { getEvent } from '../../db/events.js';
import { getIncident } from '../../db/incidents.js';
import type { PageRequest } from '../../db/query.js';
import { auditEntry, auditPut } from '../../db/audit/index.js';
import { transactWrite } from '../../db/transact.js';
import {
  getRun,
  getWorkflow,
  listRuns,
  publicRun,
  putNewRunItem,
  putTimer,
  type PublicRun,
  type StoredRun,
  type Workflow,
} from '../../db/workflows.js';
import { ConflictError, invalid, NotFoundError } from '../../errors.js';
import { newTimeId, now } from '../../ids.js';
import type { TenantId } from '../../vocabulary/tenant.js';
import { WORKFLOW_NOT_FOUND, WORKFLOW_RUN_NOT_FOUND, type RunStatus } from '../../vocabulary/workflows.js';
import type { Actor } from '../actor.js';
import { EVENT_NOT_FOUND } from '../events/index.js';
import { INCIDENT_NOT_FOUND } from '../incidents/index.js';
import { INCIDENT_ACTIONS } from './definitions.js';
import { agentEnabled } from '../agents/index.js';

export const RUNS_QUEUE = 'workflow-runs';

/** A run to go on with, as the queue carries it (besides the bus's own messages). */
export interface RunJob {
  kind: 'run';
  tenant_id: string;
  workflow_id: string;
  run_id: string;
}

export const queueRuns = async (jobs: readonly Omit<RunJob, 'kind'>[]): Promise<void> => {
  if (jobs.length > 0)
    await queues().send(
      RUNS_QUEUE,
      jobs.map((j) => ({ body: JSON.stringify({ kind: 'run', ...j } satisfies RunJob) })),
    );
};

/** How long after a run is queued its safety timer queues it again (shared/domain/workflows/runner.ts). */
const SAFETY_MS = 5 * 60_000;

/**
 * Written with a run that is queued: should the queue not take its message (the request fails
 * after the run is stored), the timers' worker queues it again then. A run that went on meanwhile
 * is left as it is (the runner claims only a run that waits for it).
 */
export function safetyTimer(run: Pick<StoredRun, 'tenant_id' | 'workflow_id' | 'run_id'>, nowMs = Date.now()) {
  return putTimer({
    kind: 'resume',
    wake_at: new Date(nowMs + SAFETY_MS).toISOString(),
    tenant_id: run.tenant_id,
    workflow_id: run.workflow_id,
    run_id: run.run_id,
  });
}

/** A new run of `w`, at its first step. */
export function newRun(
  w: Workflow,
  runId: string,
  trigger: StoredRun['trigger'],
  from: {
    event?: Record<string, unknown> | null;
    incidentId?: string | null;
    eventId?: string | null;
    input?: Record<string, unknown>;
  },
): StoredRun {
  return {
    run_id: runId,
    workflow_id: w.workflow_id,
    tenant_id: w.tenant_id,
    status: 'running',
    trigger,
    incident_id: from.incidentId ?? null,
    event_id: from.eventId ?? null,
    input: from.input ?? {},
    steps: w.actions.map((a, index) => ({
      index,
      type: a.type,
      status: 'pending',
      attempts: 0,
      started_at: null,
      ended_at: null,
      result: null,
      error: null,
    })),
    resume_at: null,
    error: null,
    started_at: now(),
    ended_at: null,
    next_step: 0,
    event: from.event ?? null,
    depth: 0,
    actions: w.actions,
    workflow_name: w.name,
    lease_until: null,
    version: 1,
  };
}

export interface PlaybookInput {
  incident_id?: string;
  event_id?: string;
  values?: Record<string, string | number | boolean | null>;
}

/**
 * Runs a playbook (a workflow with a manual trigger) now: its run is made and queued for the
 * runner; the answer is the run as made. Its incident and event are the tenant's (404 otherwise);
 * a playbook whose steps act on an incident before opening one needs `incident_id` (422).
 */
export async function runPlaybook(
  actor: Actor,
  tenantId: TenantId,
  workflowId: string,
  input: PlaybookInput,
): Promise<PublicRun> {
  const w = await getWorkflow(tenantId, workflowId);
  if (!w) throw new NotFoundError(WORKFLOW_NOT_FOUND);
  if (w.trigger.type !== 'manual')
    throw new ConflictError(
      `This workflow runs on its ${w.trigger.type} trigger; only a playbook (a manual trigger) is run by request`,
    );
  if (!w.enabled) throw new ConflictError('The playbook is disabled: enable it first');
  if (!(await agentEnabled(tenantId, 'workflow-runner')))
    throw new ConflictError(
      'The workflow runner agent is switched off for this tenant (PATCH /api/v1/agents/workflow-runner)',
    );
  const [incident, event] = await Promise.all([
    input.incident_id ? getIncident(tenantId, input.incident_id) : null,
    input.event_id ? getEvent(tenantId, input.event_id) : null,
  ]);
  if (input.incident_id && !incident) throw new NotFoundError(INCIDENT_NOT_FOUND);
  if (input.event_id && !event) throw new NotFoundError(EVENT_NOT_FOUND);
  const firstOnIncident = w.actions.findIndex((a) => INCIDENT_ACTIONS.has(a.type));
  const firstOpening = w.actions.findIndex((a) => a.type === 'create_incident');
  if (!incident && firstOnIncident >= 0 && (firstOpening < 0 || firstOpening > firstOnIncident)) {
    throw invalid(
      ['body', 'incident_id'],
      `is required: step ${firstOnIncident} (${w.actions[firstOnIncident]!.type}) acts on an incident`,
      'missing',
    );
  }
  const by = actor.principal?.userId ?? actor.kind;
  const { content_hash: _h, ...shownEvent } = (event ?? {}) as Record<string, unknown>;
  const run = newRun(
    w,
    newTimeId(),
    { type: 'manual', message_id: null, by },
    {
      incidentId: input.incident_id ?? null,
      eventId: input.event_id ?? null,
      event: event ? shownEvent : null,
      input: {
        ...(input.values ?? {}),
        ...(input.incident_id ? { incident_id: input.incident_id } : {}),
        ...(input.event_id ? { event_id: input.event_id } : {}),
      },
    },
  );
  await transactWrite([
    putNewRunItem(run),
    safetyTimer(run),
    auditPut(
      auditEntry(actor, {
        tenantId,
        action: 'workflow.run',
        resourceType: 'workflow',
        resourceId: workflowId,
        changes: { run_id: run.run_id, incident_id: run.incident_id, event_id: run.event_id },
      }),
    ),
  ]);
  await queueRuns([{ tenant_id: tenantId, workflow_id: workflowId, run_id: run.run_id }]);
  return publicRun(run);
}

/** A page of the workflow's runs, newest first (404 for a workflow not the tenant's). */
export async function listWorkflowRuns(
  tenantId: TenantId,
  workflowId: string,
  status: RunStatus | undefined,
  page: PageRequest,
): Promise<PublicRun[]> {
  if (!(await getWorkflow(tenantId, workflowId))) throw new NotFoundError(WORKFLOW_NOT_FOUND);
  return (await listRuns(tenantId, workflowId, status, page)).map(publicRun);
}

export async function findWorkflowRun(tenantId: TenantId, workflowId: string, runId: string): Promise<PublicRun> {
  const run = await getRun(tenantId, workflowId, runId);
  if (!run) throw new NotFoundError(WORKFLOW_RUN_NOT_FOUND);
  return publicRun(run);
}
