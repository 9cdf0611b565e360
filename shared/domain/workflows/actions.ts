/**
 * What each step of a workflow does (`wait` aside: the runner, shared/domain/workflows/runner.ts, keeps
 * it). Each goes through the product's own operations, as the workflow (audited with
 * `actor_type` `workflow`): opening an incident, changing it, escalating it, noting on it,
 * telling an integration, one signed webhook delivery, starting another workflow's run.
 *
 * A step tried again after a failure does not do twice what it did once where that can be known:
 * the incident it opens has an id made from the run and the step, the webhook delivery too.
 */
import { isNotifyKind } from '../../schemas/integrations.js';
import { pendingDelivery, queueDeliveries, deliveryId } from '../webhooks/index.js';
import { getIncident, type Incident } from '../../db/incidents.js';
import { getIntegration } from '../../db/integrations.js';
import { ConditionFailed, transactWrite } from '../../db/transact.js';
import { getWebhook, putNewDelivery } from '../../db/webhooks/index.js';
import { getWorkflow, putNewRun, type StoredRun, type WorkflowAction } from '../../db/workflows.js';
import { ConflictError, NotFoundError, RequestValidationError } from '../../errors.js';
import { derivedTimeId } from '../../ids.js';
import type { WorkflowActor } from '../../vocabulary/actor.js';
import { INCIDENT_NOT_FOUND, openIncidentWithEvents, change, escalate, respond } from '../incidents/index.js';
import { INTEGRATION_NOT_FOUND } from '../../vocabulary/integrations.js';
import { MAX_RUN_DEPTH, WORKFLOW_NOT_FOUND } from '../../vocabulary/workflows.js';
import { newRun } from './run-records.js';
import {
  accepted,
  sendNotice,
  type Notice,
  type PagerDutySeverity,
  openIntegrationConfig,
  outboundPolicy,
} from '../integrations/index.js';
import type { IncidentSeverity } from '../../vocabulary/incidents.js';

/** A failure no retry mends (a target gone, a transition the incident's state forbids): the step fails at once. */
export class StepRefused extends Error {}

/** Whether trying a failed step again could succeed: not for an answer the product itself refused. */
export const isRetryable = (err: unknown): boolean =>
  !(
    err instanceof StepRefused ||
    err instanceof NotFoundError ||
    err instanceof ConflictError ||
    err instanceof RequestValidationError
  );

export interface StepContext {
  actor: WorkflowActor;
  run: StoredRun;
  index: number;
  action: WorkflowAction;
  workflowName: string;
  /** The incident as read for the step's `if` (null: the run has none). */
  incident: Incident | null;
  /** Starts another run (a `run_workflow` step): the runner queues it. */
  startRun(run: StoredRun['run_id'], workflowId: string): Promise<void>;
}

export interface StepOutcome {
  result: Record<string, unknown>;
  /** The incident the run acts on from now on (a step opened it). */
  incidentId?: string;
}

const PAGERDUTY: Record<IncidentSeverity, PagerDutySeverity> = {
  critical: 'critical',
  high: 'error',
  medium: 'warning',
  low: 'info',
};

function needIncident(ctx: StepContext): Incident {
  if (!ctx.incident)
    throw new StepRefused(ctx.run.incident_id ? INCIDENT_NOT_FOUND : 'The run has no incident to act on');
  return ctx.incident;
}

export async function performStep(ctx: StepContext): Promise<StepOutcome> {
  const { action, actor, run } = ctx;
  const tenantId = run.tenant_id;
  switch (action.type) {
    case 'create_incident':
      return openForRun(ctx);
    case 'update_incident': {
      const incident = needIncident(ctx);
      let view = incident;
      if (action.severity && action.severity !== incident.severity) {
        const severity = action.severity;
        await change(actor, tenantId, incident.incident_id, (current, at) => ({
          next: {
            ...current,
            severity,
            history: [
              ...current.history,
              {
                at,
                kind: 'severity',
                by: `workflow:${actor.workflowId}`,
                detail: { from: current.severity, to: severity },
              },
            ],
          },
          fields: ['severity'],
          action: 'incident.updated',
          changes: { severity: { from: current.severity, to: severity } },
        }));
      }
      if (action.status !== undefined || action.assignee_id !== undefined) {
        const changed = await respond(actor, tenantId, incident.incident_id, {
          status: action.status,
          assignee_id: action.assignee_id,
        });
        view = { ...view, status: changed.status, assignee_id: changed.assignee_id };
      }
      return {
        result: {
          incident_id: incident.incident_id,
          severity: action.severity ?? incident.severity,
          status: view.status,
          assignee_id: view.assignee_id,
        },
      };
    }
    case 'escalate': {
      const incident = needIncident(ctx);
      const view = await escalate(
        actor,
        tenantId,
        incident.incident_id,
        action.reason ?? `Workflow "${ctx.workflowName}"`,
      );
      return { result: { incident_id: incident.incident_id, escalation_level: view.escalation_level } };
    }
    case 'add_note': {
      const incident = needIncident(ctx);
      await respond(actor, tenantId, incident.incident_id, { note: action.text });
      return { result: { incident_id: incident.incident_id } };
    }
    case 'notify_integration':
      return notifyIntegration(ctx);
    case 'send_webhook':
      return sendWebhook(ctx);
    case 'run_workflow': {
      if (run.depth + 1 > MAX_RUN_DEPTH)
        throw new StepRefused(`Runs started by run_workflow steps nest at most ${MAX_RUN_DEPTH} deep`);
      const target = await getWorkflow(tenantId, action.workflow_id!);
      if (!target) throw new StepRefused(WORKFLOW_NOT_FOUND);
      const startedMs = Date.parse(run.started_at);
      const child: StoredRun = {
        ...newRun(
          target,
          derivedTimeId(startedMs, `workflow-child\u0000${run.run_id}\u0000${ctx.index}`, 0),
          { type: 'workflow', message_id: null, by: `run:${run.run_id}` },
          {
            event: run.event,
            eventId: run.event_id,
            incidentId: run.incident_id,
            input: run.input,
          },
        ),
        depth: run.depth + 1,
      };
      // A step tried again finds the run it made.
      await putNewRun(child);
      await ctx.startRun(child.run_id, child.workflow_id);
      return { result: { workflow_id: target.workflow_id, run_id: child.run_id } };
    }
    case 'wait':
      throw new Error("a wait step is the runner's");
  }
}

/**
 * Opens the incident of a `create_incident` step: linked to the triggering event when that event
 * belongs to no incident yet, in its environment and place. Its id is made from the run and the
 * step, so a step tried again finds it instead of opening another.
 */
async function openForRun(ctx: StepContext): Promise<StepOutcome> {
  const { action, run } = ctx;
  const incidentId = derivedTimeId(
    Date.parse(run.started_at),
    `workflow-incident\u0000${run.run_id}\u0000${ctx.index}`,
    0,
  );
  const existing = await getIncident(run.tenant_id, incidentId);
  if (existing) return { result: { incident_id: incidentId, severity: existing.severity }, incidentId };
  const event = run.event as {
    event_id?: string;
    environment_id?: string | null;
    location?: { lat: number; lon: number } | null;
    incident_id?: string | null;
  } | null;
  const input = {
    title: action.title!,
    severity: action.severity ?? 'medium',
    status: 'confirmed' as const,
    ...(action.description ? { description: action.description } : {}),
    ...(event?.environment_id ? { environment_id: event.environment_id } : {}),
    ...(event?.location ? { location: event.location } : {}),
  };
  const linkable = event?.event_id && !event.incident_id ? [event.event_id] : [];
  let opened;
  try {
    opened = await openIncidentWithEvents(
      ctx.actor,
      run.tenant_id,
      { ...input, event_ids: linkable },
      { source: 'workflow', incidentId },
    );
  } catch (err) {
    // The event joined another incident meanwhile (the tenant's own threshold opened one): this one goes without it.
    if (!(err instanceof ConflictError) || linkable.length === 0) throw err;
    opened = await openIncidentWithEvents(ctx.actor, run.tenant_id, input, { source: 'workflow', incidentId });
  }
  return {
    result: { incident_id: opened.incident_id, severity: opened.severity, linked_event_ids: opened.event_ids },
    incidentId: opened.incident_id,
  };
}

/** What a workflow tells an integration or a webhook: the run, its incident or event, and the step's message. */
function runNotice(ctx: StepContext, type: string): Notice {
  const { run, incident, action } = ctx;
  const event = run.event as { event_id?: string; type?: string; threat_score?: number | null } | null;
  const severity: IncidentSeverity = incident?.severity ?? 'medium';
  const subject = incident
    ? `${severity.toUpperCase()} incident: ${incident.title}`
    : event?.type
      ? `Event ${event.type}`
      : 'Workflow run';
  const message = action.message ?? `Workflow "${ctx.workflowName}" ran.`;
  return {
    type,
    id: `msg_${derivedTimeId(Date.parse(run.started_at), `workflow-notice\u0000${run.run_id}\u0000${ctx.index}`, 0)}`,
    at: new Date(),
    title: `${ctx.workflowName}: ${subject}`,
    text: [
      message,
      subject,
      ...(incident ? [`Status: ${incident.status}`, `Escalation level: ${incident.escalation_level}`] : []),
    ].join('\n'),
    severity: PAGERDUTY[severity],
    dedupKey: `gatehouse-${incident?.incident_id ?? event?.event_id ?? run.run_id}`,
    facts: [
      { name: 'Workflow', value: ctx.workflowName },
      ...(incident ? [{ name: 'Severity', value: severity.toUpperCase() }] : []),
      ...(event?.threat_score !== undefined && event?.threat_score !== null
        ? [{ name: 'Threat score', value: String(event.threat_score) }]
        : []),
    ],
    data: {
      workflow_id: run.workflow_id,
      workflow_name: ctx.workflowName,
      run_id: run.run_id,
      step: ctx.index,
      message,
      incident_id: incident?.incident_id ?? null,
      event_id: event?.event_id ?? run.event_id,
    },
  };
}

async function notifyIntegration(ctx: StepContext): Promise<StepOutcome> {
  const stored = await getIntegration(ctx.run.tenant_id, ctx.action.integration_id!);
  if (!stored) throw new StepRefused(INTEGRATION_NOT_FOUND);
  if (!stored.enabled) throw new StepRefused('The integration is disabled');
  const { kind } = stored;
  if (!isNotifyKind(kind)) throw new StepRefused(`A ${kind} integration tells nobody`);
  const answer = await sendNotice(
    kind,
    await openIntegrationConfig(stored),
    runNotice(ctx, 'workflow.notification'),
    outboundPolicy(),
  );
  if (!accepted(kind, answer))
    throw new Error(`The integration did not accept the message: ${answer.status ?? answer.error ?? 'no answer'}`);
  return {
    result: {
      integration_id: stored.integration_id,
      kind: stored.kind,
      status_code: answer.status,
      latency_ms: answer.latencyMs,
    },
  };
}

/** One signed delivery of type `workflow.action` to the subscription, through the webhook deliverer (its retries and log). */
async function sendWebhook(ctx: StepContext): Promise<StepOutcome> {
  const { run } = ctx;
  const webhook = await getWebhook(run.tenant_id, ctx.action.webhook_id!);
  if (!webhook) throw new StepRefused('Webhook subscription not found');
  if (!webhook.enabled) throw new StepRefused('The webhook subscription is disabled');
  const notice = runNotice(ctx, 'workflow.action');
  const at = new Date().toISOString();
  const messageId = `${run.run_id}:${ctx.index}`;
  const id = deliveryId({ messageId, time: run.started_at }, webhook.webhook_id);
  try {
    const payload = JSON.stringify({ type: 'workflow.action', timestamp: at, data: notice.data });
    await transactWrite([
      putNewDelivery(
        pendingDelivery(
          {
            deliveryId: id,
            webhookId: webhook.webhook_id,
            tenantId: run.tenant_id,
            eventType: 'workflow.action',
            messageId,
            payload,
          },
          at,
        ),
      ),
    ]);
  } catch (err) {
    // Made by this step's try before: queued again below (the deliverer attempts a pending one once).
    if (!(err instanceof ConditionFailed)) throw err;
  }
  await queueDeliveries([{ tenant_id: run.tenant_id, webhook_id: webhook.webhook_id, delivery_id: id }]);
  return { result: { webhook_id: webhook.webhook_id, delivery_id: id } };
}
