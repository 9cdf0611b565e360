/** Workflows and playbooks: what a tenant's automation does by itself, and its runs. */
import {
  workflowCreate,
  workflowListQuery,
  workflowPath,
  workflowResponse,
  workflowRunPath,
  workflowRunRequest,
  workflowRunResponse,
  workflowRunsQuery,
  workflowScopeQuery,
  workflowUpdate,
} from '../schemas/workflows.js';
import { MAX_ACTIONS, MAX_STEP_ATTEMPTS, MAX_WORKFLOWS_PER_TENANT } from '../vocabulary/workflows.js';
import type { RouteDef } from './types.js';

const CHECKED = `Checked when saved (422 at the field): each step takes the fields of its \`type\` only; rules use the operators listed; a step acting on an incident has one (an \`incident\` trigger's, a \`create_incident\` step before it, or a playbook's input). An integration, webhook subscription, user or workflow a step names that is not the tenant's is 404, as an unknown id. \`run_workflow\` steps may not form a loop (422 naming it). At most ${MAX_ACTIONS} steps; at most ${MAX_WORKFLOWS_PER_TENANT} workflows per tenant (409 beyond).`;
const RUNS = `The workflow runner runs a workflow once per bus message that triggers it and meets its conditions (a redelivered message does not run it again); what it changes is audited as the workflow (\`actor_type\` \`workflow\`). A failing step is tried ${MAX_STEP_ATTEMPTS} times, then the step and its run are marked failed. See docs/workflows.md.`;

export const workflowsCreateRoute = {
  id: 'workflows.create',
  method: 'POST',
  path: '/api/v1/workflows',
  handler: 'functions/workflows/create.ts',
  access: 'TENANT_ADMIN',
  tenant: 'body',
  tag: 'workflows',
  summary: 'Create a workflow: a trigger, conditions in JSON Logic, and ordered steps',
  description: `${CHECKED} ${RUNS}`,
  request: { body: workflowCreate },
  response: { status: 201, description: 'The workflow as stored.', schema: workflowResponse },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const workflowsListRoute = {
  id: 'workflows.list',
  method: 'GET',
  path: '/api/v1/workflows',
  handler: 'functions/workflows/list.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'workflows',
  summary: "A tenant's workflows, oldest first",
  description: '`trigger_type` keeps those of one trigger (`manual`: the playbooks), `enabled` those on or off.',
  request: { query: workflowListQuery },
  response: { status: 200, description: 'A page of workflows.', schema: { type: 'array', items: workflowResponse } },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const workflowsGetRoute = {
  id: 'workflows.get',
  method: 'GET',
  path: '/api/v1/workflows/{workflow_id}',
  handler: 'functions/workflows/get.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'workflows',
  summary: 'A workflow',
  request: { path: workflowPath, query: workflowScopeQuery },
  response: { status: 200, description: 'The workflow.', schema: workflowResponse },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const workflowsUpdateRoute = {
  id: 'workflows.update',
  method: 'PATCH',
  path: '/api/v1/workflows/{workflow_id}',
  handler: 'functions/workflows/update.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'workflows',
  summary: 'Change a workflow',
  description: `\`actions\` replaces the whole list. Runs under way go on with the steps they started with. ${CHECKED}`,
  request: { path: workflowPath, query: workflowScopeQuery, body: workflowUpdate },
  response: { status: 200, description: 'The workflow as it is now.', schema: workflowResponse },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const workflowsDeleteRoute = {
  id: 'workflows.delete',
  method: 'DELETE',
  path: '/api/v1/workflows/{workflow_id}',
  handler: 'functions/workflows/delete.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'workflows',
  summary: 'Delete a workflow',
  description:
    'A workflow another one runs (a `run_workflow` step) is 409: change that one first. Its runs stay readable until they expire (90 days).',
  request: { path: workflowPath, query: workflowScopeQuery },
  response: { status: 204, description: 'Deleted.' },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

const switchRoute = (enabled: boolean) =>
  ({
    id: enabled ? 'workflows.enable' : 'workflows.disable',
    method: 'POST',
    path: `/api/v1/workflows/{workflow_id}/${enabled ? 'enable' : 'disable'}`,
    handler: `functions/workflows/${enabled ? 'enable' : 'disable'}.ts`,
    access: 'TENANT_ADMIN',
    tenant: 'query',
    tag: 'workflows',
    summary: enabled ? 'Switch a workflow on' : 'Switch a workflow off',
    description: enabled
      ? 'Idempotent. A scheduled workflow counts its period from now.'
      : 'Idempotent. It starts no run from now on; runs under way (a wait) go on.',
    request: { path: workflowPath, query: workflowScopeQuery },
    response: { status: 200, description: 'The workflow as it is now.', schema: workflowResponse },
    errors: [404],
    grants: { audit: 'seal', table: 'write' },
  }) as const satisfies RouteDef;

export const workflowsEnableRoute = switchRoute(true);
export const workflowsDisableRoute = switchRoute(false);

export const workflowsRunRoute = {
  id: 'workflows.run',
  method: 'POST',
  path: '/api/v1/workflows/{workflow_id}/run',
  handler: 'functions/workflows/run.ts',
  access: 'OPERATOR',
  tenant: 'query',
  tag: 'workflows',
  summary: 'Run a playbook now',
  description:
    "A playbook is a workflow with a `manual` trigger: its run is made and queued for the workflow runner, and answered at once (follow it at `GET /api/v1/workflows/{id}/runs/{run_id}`). `incident_id` and `event_id` must be the tenant's (404); a playbook whose steps act on an incident before opening one needs `incident_id` (422). A workflow of another trigger, or one switched off, is 409. Audited as `workflow.run`.",
  request: { path: workflowPath, query: workflowScopeQuery, body: workflowRunRequest },
  response: { status: 202, description: 'The run, queued.', schema: workflowRunResponse },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write', queues: { 'workflow-runs': 'send' } },
} as const satisfies RouteDef;

export const workflowsRunsRoute = {
  id: 'workflows.runs',
  method: 'GET',
  path: '/api/v1/workflows/{workflow_id}/runs',
  handler: 'functions/workflows/runs.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'workflows',
  summary: "A workflow's runs, newest first, each with its steps",
  description:
    "Each step: its status, tries, start and end, what it did (`result`) and why it failed (`error`). One Query of the workflow's runs; `status` keeps those of one status. Runs are kept 90 days.",
  request: { path: workflowPath, query: workflowRunsQuery },
  response: { status: 200, description: 'A page of runs.', schema: { type: 'array', items: workflowRunResponse } },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const workflowsRunGetRoute = {
  id: 'workflows.runs.get',
  method: 'GET',
  path: '/api/v1/workflows/{workflow_id}/runs/{run_id}',
  handler: 'functions/workflows/run-get.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'workflows',
  summary: 'A run of a workflow, with its steps',
  request: { path: workflowRunPath, query: workflowScopeQuery },
  response: { status: 200, description: 'The run.', schema: workflowRunResponse },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const workflowsRoutes: readonly RouteDef[] = [
  workflowsCreateRoute,
  workflowsListRoute,
  workflowsGetRoute,
  workflowsUpdateRoute,
  workflowsDeleteRoute,
  workflowsEnableRoute,
  workflowsDisableRoute,
  workflowsRunRoute,
  workflowsRunsRoute,
  workflowsRunGetRoute,
];
