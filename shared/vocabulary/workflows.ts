/** The words of workflows (shared/domain/workflows/definitions.ts): what triggers one, what it does, its limits. */

export const WORKFLOW_NOT_FOUND = 'Workflow not found';
export const WORKFLOW_RUN_NOT_FOUND = 'Workflow run not found';

/**
 * What starts a workflow: an event stored (`event`), a change of an incident (`incident`), a
 * schedule, or a person (`manual`: a playbook, run with `POST /api/v1/workflows/{id}/run`).
 */
export const TRIGGER_TYPES = ['event', 'incident', 'schedule', 'manual'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/** The incident changes a workflow can wait for: the bus messages of source `gatehouse.incidents`. */
export const INCIDENT_CHANGES = [
  'incident.created',
  'incident.confirmed',
  'incident.acknowledged',
  'incident.in_progress',
  'incident.on_hold',
  'incident.resolved',
  'incident.closed',
  'incident.cancelled',
  'incident.updated',
  'incident.escalated',
  'incident.sla_breached',
] as const;

/** What a step does. */
export const ACTION_TYPES = [
  'create_incident',
  'update_incident',
  'escalate',
  'add_note',
  'notify_integration',
  'send_webhook',
  'run_workflow',
  'wait',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** Workflows per tenant at most: the runner reads all of a tenant's in one Query for each batch of messages. */
export const MAX_WORKFLOWS_PER_TENANT = 50;
/** Steps per workflow at most. */
export const MAX_ACTIONS = 20;
/** The longest wait of one step: a week. */
export const MAX_WAIT_MINUTES = 7 * 24 * 60;
/** Times a failing step is tried before it (and its run) is marked failed. */
export const MAX_STEP_ATTEMPTS = 3;
/** A rule (a trigger's conditions or a step's `if`) as JSON, at most. */
export const MAX_RULE_BYTES = 8 * 1024;
/** How deep a rule nests at most. */
export const MAX_RULE_DEPTH = 16;
/** Runs started by `run_workflow` steps, one inside the other, at most (cycles are refused when saved). */
export const MAX_RUN_DEPTH = 5;
/** How long a run's record is kept: 90 days. */
export const RUN_RETENTION_DAYS = 90;

export const RUN_STATUSES = ['running', 'waiting', 'succeeded', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const STEP_STATUSES = ['pending', 'running', 'waiting', 'succeeded', 'failed', 'skipped'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];
