/**
 * Running workflows. The runner (worker `workflow-runner`) reads the queue `workflow-runs`, fed by
 * a rule on the service's bus with every stored event and incident change, and by the service
 * itself with runs to go on with (a playbook started, a wait ended, a run another run started).
 *
 * Exactly once per triggering message: a run's id is made from the workflow and the bus message,
 * and its record is made only when new, so a redelivered message finds the run (and goes on with
 * it only where it stopped). A run is worked on by one runner at a time: it is claimed with a
 * lease, in a write conditioned on the version read; every step's outcome is written the same way
 * before the next begins. A failing step is tried again (the message comes back after a backoff)
 * up to MAX_STEP_ATTEMPTS times, then it and its run are marked failed. A `wait` step writes a
 * timer (shared/db/workflows.ts) in the transaction that parks the run; the timers' worker
 * (`workflow-timers`, every minute) queues the run again when it is due. Nothing sleeps.
 *
 * A crash between an action and the write of its outcome repeats that one action when the run
 * goes on; the incident a step opens and the webhook delivery it makes have ids of their own
 * (shared/domain/workflows/actions.ts) and are not made twice.
 */
import { getIncident, type Incident } from '../../db/incidents.js';
import {
  allWorkflows,
  dueTimers,
  getRun,
  getWorkflow,
  putNewRun,
  putNewRunItem,
  putTimer,
  removeTimer,
  saveRunItem,
  updateWorkflowItems,
  type StoredRun,
  type StoredWorkflow,
  type Workflow,
  type WorkflowTimer,
} from '../../db/workflows.js';
import { ConditionFailed, transactWrite, type TransactItem } from '../../db/transact.js';
import { derivedTimeId, now } from '../../ids.js';
import { log } from '../../log.js';
import type { WorkflowActor } from '../../vocabulary/actor.js';
import { systemTenant, type TenantId } from '../../vocabulary/tenant.js';
import { MAX_STEP_ATTEMPTS, type RunStatus } from '../../vocabulary/workflows.js';
import { isRetryable, performStep } from './actions.js';
import { newRun, queueRuns, safetyTimer, type RunJob } from './run-records.js';
import { ruleHolds } from './rule-eval.js';
import { agentEnabled } from '../agents/index.js';
import type { BusMessage } from '../webhooks/index.js';

export { RUNS_QUEUE, type RunJob } from './run-records.js';

/** How long a runner may work on a run before another may take it over: over the runner's timeout. */
const LEASE_MS = 90_000;

/** A step failed and will be tried again: the message that carried the run comes back after a backoff. */
export class RunRetryLater extends Error {}

const workflowActor = (run: Pick<StoredRun, 'workflow_id' | 'run_id'>): WorkflowActor => ({
  kind: 'workflow',
  principal: null,
  requestId: run.run_id,
  sourceIp: 'workflow',
  workflowId: run.workflow_id,
  runId: run.run_id,
});

/** Whether the workflow starts on this bus message. */
export function triggeredBy(w: Workflow, message: Pick<BusMessage, 'type'> & { source: string }): boolean {
  if (!w.enabled) return false;
  const t = w.trigger;
  if (t.type === 'event')
    return (
      message.source === 'gatehouse.events' &&
      (!t.event_types || (t.event_types as readonly string[]).includes(message.type))
    );
  if (t.type === 'incident')
    return (
      message.source === 'gatehouse.incidents' &&
      (t.changes as readonly string[] | undefined)?.includes(message.type) === true
    );
  return false;
}

/** What the rules read: `event`, `incident`, `input`, `trigger`, `workflow`. */
function ruleData(
  run: Pick<StoredRun, 'event' | 'input' | 'trigger' | 'workflow_id' | 'workflow_name'>,
  incident: Incident | Record<string, unknown> | null,
): Record<string, unknown> {
  const { history: _h, ...shown } = (incident ?? {}) as Record<string, unknown>;
  return {
    event: run.event,
    incident: incident ? shown : null,
    input: run.input,
    trigger: { type: run.trigger.type },
    workflow: { workflow_id: run.workflow_id, name: run.workflow_name },
  };
}

/**
 * Starts (or goes on with) the runs of the tenant's workflows this bus message triggers and whose
 * conditions it meets; returns their ids. `workflows` are the tenant's, read once for a batch.
 */
export async function runWorkflowsFor(
  message: BusMessage & { source: string },
  workflows: readonly StoredWorkflow[],
): Promise<string[]> {
  const isEvent = message.source === 'gatehouse.events';
  const detail = message.detail;
  const started: string[] = [];
  let failure: unknown;
  // A tenant that switched the workflow runner agent off starts no run.
  if (!(await agentEnabled(message.tenantId, 'workflow-runner'))) return started;
  for (const w of workflows.filter((w) => triggeredBy(w, message))) {
    const runId = derivedTimeId(
      Date.parse(message.time),
      `workflow-run\u0000${w.workflow_id}\u0000${message.messageId}`,
      0,
    );
    const run = newRun(
      w,
      runId,
      { type: message.type, message_id: message.messageId, by: null },
      {
        event: isEvent ? detail : null,
        eventId: isEvent ? (detail.event_id as string) : null,
        incidentId: isEvent ? null : ((detail.incident_id as string | undefined) ?? null),
      },
    );
    if (!ruleHolds(w.conditions, ruleData(run, isEvent ? null : detail))) continue;
    started.push(runId);
    // Made already claimed (one write); a redelivered message finds it made and goes on only
    // where that one stopped. One run's failing step does not hold up the others: the message
    // comes back for it.
    const claimed: StoredRun = { ...run, lease_until: new Date(Date.now() + LEASE_MS).toISOString() };
    const going = (await putNewRun(claimed))
      ? runSteps(claimed)
      : advanceRun(systemTenant(w.tenant_id), w.workflow_id, runId);
    await going.catch((err: unknown) => (failure ??= err));
  }
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows what a run threw, as it was
  if (failure) throw failure;
  return started;
}

/** Goes on with the run a job names (its tenant is the run's own, written when the run was made). */
export const continueRun = (job: RunJob): Promise<RunStatus | null> =>
  advanceRun(systemTenant(job.tenant_id), job.workflow_id, job.run_id);

/** The tenant's workflows, for a batch of its messages. */
export const workflowsOf = (tenantId: string): Promise<StoredWorkflow[]> => allWorkflows(systemTenant(tenantId));

/**
 * Goes on with a run from the step it reached, if no other runner works on it and it is not
 * waiting for a later time. Returns its status afterwards (null: left alone).
 */
export async function advanceRun(
  tenantId: TenantId,
  workflowId: string,
  runId: string,
  nowMs = Date.now(),
): Promise<RunStatus | null> {
  const read = await getRun(tenantId, workflowId, runId);
  if (!read) {
    log.warn('a workflow run to go on with is gone', { tenant_id: tenantId, workflow_id: workflowId, run_id: runId });
    return null;
  }
  let run: StoredRun = read;
  // Switched off for the tenant: a run due to go on waits, parked on a timer, until it is on again.
  if (!(await agentEnabled(tenantId, 'workflow-runner'))) return parkWhileOff(run, nowMs);
  const claimable =
    (run.status === 'running' ||
      (run.status === 'waiting' && run.resume_at !== null && Date.parse(run.resume_at) <= nowMs)) &&
    (!run.lease_until || Date.parse(run.lease_until) <= nowMs);
  if (!claimable) return null;
  const at = new Date(nowMs).toISOString();
  if (run.status === 'waiting') {
    const waited = run.steps[run.next_step - 1];
    if (waited) Object.assign(waited, { status: 'succeeded', ended_at: at });
  }
  run = { ...run, status: 'running', resume_at: null, lease_until: new Date(nowMs + LEASE_MS).toISOString() };
  if (!(await save(run))) return null;
  return runSteps({ ...run, version: run.version + 1 });
}

/** Runs the steps of a run this runner holds (its lease written), from the one it reached. */
async function runSteps(held: StoredRun): Promise<RunStatus> {
  let run = held;
  const { tenant_id: tenantId, workflow_id: workflowId, run_id: runId } = run;
  const actor = workflowActor(run);
  while (run.next_step < run.actions.length) {
    const index = run.next_step;
    const action = run.actions[index]!;
    const step = run.steps[index]!;
    const incident = run.incident_id ? await getIncident(tenantId, run.incident_id) : null;
    const stepAt = now();
    if (action.if && !ruleHolds(action.if, ruleData(run, incident))) {
      Object.assign(step, { status: 'skipped', started_at: stepAt, ended_at: stepAt });
      run.next_step++;
      run = await saved(run);
      continue;
    }
    if (action.type === 'wait') {
      const resumeAt = new Date(Date.parse(stepAt) + action.minutes! * 60_000).toISOString();
      Object.assign(step, { status: 'waiting', started_at: stepAt, attempts: 1, result: { until: resumeAt } });
      run = { ...run, status: 'waiting', resume_at: resumeAt, next_step: index + 1, lease_until: null };
      await saved(run, [
        putTimer({ kind: 'resume', wake_at: resumeAt, tenant_id: tenantId, workflow_id: workflowId, run_id: runId }),
      ]);
      return 'waiting';
    }
    Object.assign(step, { status: 'running', started_at: step.started_at ?? stepAt, attempts: step.attempts + 1 });
    try {
      const outcome = await performStep({
        actor,
        run,
        index,
        action,
        workflowName: run.workflow_name,
        incident,
        startRun: (childRunId, childWorkflowId) =>
          queueRuns([{ tenant_id: tenantId, workflow_id: childWorkflowId, run_id: childRunId }]),
      });
      Object.assign(step, { status: 'succeeded', ended_at: now(), result: outcome.result, error: null });
      if (outcome.incidentId) run.incident_id = outcome.incidentId;
      run.next_step++;
      run = await saved(run);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      const retry = isRetryable(err) && step.attempts < MAX_STEP_ATTEMPTS;
      log.warn(retry ? 'a workflow step failed; it is tried again' : 'a workflow step failed for good', {
        tenant_id: tenantId,
        workflow_id: workflowId,
        run_id: runId,
        step: index,
        attempts: step.attempts,
        err,
      });
      if (retry) {
        Object.assign(step, { status: 'pending', error: reason });
        await saved({ ...run, lease_until: null });
        throw new RunRetryLater(
          `step ${index} of run ${runId} failed (try ${step.attempts} of ${MAX_STEP_ATTEMPTS}): ${reason}`,
        );
      }
      Object.assign(step, { status: 'failed', ended_at: now(), error: reason });
      await saved({
        ...run,
        status: 'failed',
        error: `Step ${index} (${action.type}) failed after ${step.attempts} ${step.attempts === 1 ? 'try' : 'tries'}: ${reason}`,
        ended_at: now(),
        lease_until: null,
      });
      return 'failed';
    }
  }
  await saved({ ...run, status: 'succeeded', ended_at: now(), lease_until: null });
  return 'succeeded';
}

/** How long a run parked while the workflow runner is off waits before it looks again. */
const PARKED_MS = 5 * 60_000;

async function parkWhileOff(run: StoredRun, nowMs: number): Promise<RunStatus | null> {
  if (run.status !== 'running' && run.status !== 'waiting') return null;
  if (run.lease_until && Date.parse(run.lease_until) > nowMs) return null;
  const resumeAt = new Date(nowMs + PARKED_MS).toISOString();
  const parked = { ...run, status: 'waiting' as const, resume_at: resumeAt, error: null };
  const timer = putTimer({
    kind: 'resume',
    wake_at: resumeAt,
    tenant_id: run.tenant_id,
    workflow_id: run.workflow_id,
    run_id: run.run_id,
  });
  return (await save(parked, [timer])) ? 'waiting' : null;
}

/** Writes the run conditioned on its version; false when another writer changed it first. */
async function save(run: StoredRun, extra: TransactItem[] = []): Promise<boolean> {
  try {
    await transactWrite([saveRunItem(run), ...extra]);
    return true;
  } catch (err) {
    if (err instanceof ConditionFailed && err.index === 0) return false;
    throw err;
  }
}

/** As `save`, for a run this runner holds: another writer is a fault (its lease ran out mid-run). */
async function saved(run: StoredRun, extra: TransactItem[] = []): Promise<StoredRun> {
  if (!(await save(run, extra)))
    throw new Error(`workflow run ${run.run_id} was changed by another runner: its lease ran out`);
  return { ...run, version: run.version + 1 };
}

// ---------------------------------------------------------------------------------------------
// Timers: waits that end, schedules that come round

export interface TimerSweep {
  due: number;
  resumed: number;
  scheduled: number;
  failed: number;
}

const PAGE = 100;

/**
 * Queues the runs whose wait has ended and starts the scheduled workflows that are due, up to
 * `deadline`. Each timer is removed once acted on; one that fails stays for the next sweep.
 */
export async function sweepWorkflowTimers(options: { deadline: number; nowMs?: number }): Promise<TimerSweep> {
  const nowMs = options.nowMs ?? Date.now();
  const at = new Date(nowMs).toISOString();
  const result: TimerSweep = { due: 0, resumed: 0, scheduled: 0, failed: 0 };
  let after: WorkflowTimer | undefined;
  while (Date.now() < options.deadline) {
    const timers = await dueTimers(at, PAGE, after);
    if (timers.length === 0) break;
    result.due += timers.length;
    for (const timer of timers) {
      try {
        if (timer.kind === 'resume' && timer.run_id) {
          await queueRuns([{ tenant_id: timer.tenant_id, workflow_id: timer.workflow_id, run_id: timer.run_id }]);
          result.resumed++;
        } else if (timer.kind === 'schedule') {
          if (await startScheduled(timer, nowMs)) result.scheduled++;
        }
        await removeTimer(timer);
      } catch (err) {
        result.failed++;
        log.error('a workflow timer could not be handled; the next sweep tries it again', {
          tenant_id: timer.tenant_id,
          workflow_id: timer.workflow_id,
          run_id: timer.run_id,
          err,
        });
      }
    }
    if (timers.length < PAGE) break;
    after = timers.at(-1);
  }
  return result;
}

/**
 * A scheduled workflow's turn: its run (one per turn: its id is made from the turn's time) and its
 * next turn, moved in one transaction with the workflow's version. A workflow switched off or
 * rescheduled since has another timer, or none: this one is stale and only removed.
 */
async function startScheduled(timer: WorkflowTimer, nowMs: number): Promise<boolean> {
  const tenantId = systemTenant(timer.tenant_id);
  const w = await getWorkflow(tenantId, timer.workflow_id);
  if (!w || !w.enabled || w.trigger.type !== 'schedule' || w.next_run_at !== timer.wake_at) return false;
  const every = w.trigger.every_minutes! * 60_000;
  // The next turn after now: turns missed while nothing ran are not made up one by one.
  let next = Date.parse(timer.wake_at) + every;
  while (next <= nowMs) next += every;
  const run = newRun(
    w,
    derivedTimeId(Date.parse(timer.wake_at), `workflow-schedule\u0000${w.workflow_id}\u0000${timer.wake_at}`, 0),
    { type: 'schedule', message_id: null, by: null },
    {},
  );
  if (!ruleHolds(w.conditions, ruleData(run, null))) {
    await transactWrite(updateWorkflowItems(w, { ...w, next_run_at: new Date(next).toISOString() }));
    return false;
  }
  try {
    await transactWrite([
      ...updateWorkflowItems(w, { ...w, next_run_at: new Date(next).toISOString() }),
      putNewRunItem(run),
      safetyTimer(run, nowMs),
    ]);
  } catch (err) {
    if (err instanceof ConditionFailed) return false;
    throw err;
  }
  await queueRuns([{ tenant_id: tenantId, workflow_id: w.workflow_id, run_id: run.run_id }]);
  return true;
}
