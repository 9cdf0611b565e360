/**
 * Workflows: what a tenant's automation does by itself. A trigger (an event stored, an incident
 * changed, a schedule, or a person for a playbook), conditions over what triggered it written in
 * JSON Logic (jsonlogic.com), and ordered steps. The checks the schema cannot make (each action's
 * own fields, the rules' operators, targets of the tenant, cycles) are in shared/domain/workflows/definitions.ts.
 */
import { EVENT_TYPES } from '../vocabulary/event-types.js';
import { nullable, pagingProperties, timestamp, uuid } from './common.js';
import type { JsonSchema } from './json-schema.js';
import { tenantScope } from './users.js';
import { INCIDENT_SEVERITIES, INCIDENT_STATUSES } from '../vocabulary/incidents.js';
import {
  ACTION_TYPES,
  INCIDENT_CHANGES,
  MAX_ACTIONS,
  MAX_RULE_BYTES,
  MAX_WAIT_MINUTES,
  RUN_STATUSES,
  STEP_STATUSES,
  TRIGGER_TYPES,
} from '../vocabulary/workflows.js';

const name = { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' } as const;
const description = { type: 'string', maxLength: 2000 } as const;

/** A JSON Logic rule: one operator and its arguments. */
export const rule = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    minProperties: 1,
    maxProperties: 1,
    description: `A JSON Logic rule (jsonlogic.com): one operator and its arguments, e.g. \`{"and": [{">": [{"var": "event.threat_score"}, 0.6]}, {"in": ["<zone id>", {"var": "event.matched_zone_ids"}]}]}\`. Operators: logic (\`and\`, \`or\`, \`!\`, \`!!\`, \`if\`), comparison (\`==\`, \`===\`, \`!=\`, \`!==\`, \`>\`, \`>=\`, \`<\`, \`<=\`), data (\`var\`, \`missing\`, \`missing_some\`), arrays (\`in\`, \`some\`, \`all\`, \`none\`, \`filter\`, \`map\`, \`merge\`), strings (\`cat\`, \`substr\`), arithmetic (\`+\`, \`-\`, \`*\`, \`/\`, \`%\`, \`min\`, \`max\`). At most ${MAX_RULE_BYTES / 1024} KB.`,
  }) as const satisfies JsonSchema)();

export const workflowTrigger = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description:
      '`event`: an event stored, of one of `event_types` (all types when absent). `incident`: one of the incident changes in `changes`. `schedule`: every `every_minutes` minutes. `manual`: a playbook, run by `POST /api/v1/workflows/{id}/run`.',
    properties: {
      type: { type: 'string', enum: TRIGGER_TYPES },
      event_types: {
        type: 'array',
        items: { type: 'string', enum: EVENT_TYPES },
        minItems: 1,
        maxItems: EVENT_TYPES.length,
        uniqueItems: true,
      },
      changes: {
        type: 'array',
        items: { type: 'string', enum: INCIDENT_CHANGES },
        minItems: 1,
        maxItems: INCIDENT_CHANGES.length,
        uniqueItems: true,
      },
      every_minutes: { type: 'integer', minimum: 5, maximum: 10_080 },
    },
    required: ['type'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

/**
 * One step. `type` says which of the other fields it takes (shared/domain/workflows/definitions.ts checks
 * them: a field of another type is 422). `if` is checked when the step's turn comes, against the
 * run's data at that moment (the incident as it is then): false skips the step.
 */
export const workflowAction = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description:
      "One step; `type` decides which fields it takes. `create_incident` (`title`, `severity`, `description`): opens an incident, linked to the triggering event; later steps act on it. `update_incident` (`severity`, `assignee_id`, `status`), `escalate` (`reason`), `add_note` (`text`): act on the run's incident (the trigger's, the input's, or the one a step opened). `notify_integration` (`integration_id`, `message`): tells an integration of the tenant (Slack, Teams, PagerDuty, email, signed HTTP). `send_webhook` (`webhook_id`, `message`): one signed delivery of type `workflow.action` to a webhook subscription of the tenant. `run_workflow` (`workflow_id`): runs another workflow of the tenant with this run's data. `wait` (`minutes`): a durable timer, then the next steps (give them an `if`: \"escalate if still not acknowledged\").",
    properties: {
      type: { type: 'string', enum: ACTION_TYPES },
      if: {
        ...rule,
        description:
          "Checked when the step's turn comes, against the run's data then (the incident as it is at that moment); false skips the step. A JSON Logic rule, as `conditions`.",
      },
      title: { type: 'string', minLength: 1, maxLength: 300, pattern: '\\S' },
      description: { type: 'string', maxLength: 5000 },
      severity: { type: 'string', enum: INCIDENT_SEVERITIES },
      status: { type: 'string', enum: INCIDENT_STATUSES.filter((s) => s !== 'draft') },
      assignee_id: uuid,
      reason: { type: 'string', maxLength: 1000 },
      text: { type: 'string', minLength: 1, maxLength: 5000, pattern: '\\S' },
      message: { type: 'string', minLength: 1, maxLength: 2000, pattern: '\\S' },
      integration_id: uuid,
      webhook_id: uuid,
      workflow_id: uuid,
      minutes: { type: 'integer', minimum: 1, maximum: MAX_WAIT_MINUTES },
    },
    required: ['type'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

const actions = { type: 'array', items: workflowAction, minItems: 1, maxItems: MAX_ACTIONS } as const;
const conditions = /* @__PURE__ */ (() =>
  ({
    ...nullable(rule),
    description: `What the triggering data must satisfy for a run to start; null or absent: always. ${rule.description}`,
  }) as const)();

export const workflowCreate = {
  type: 'object',
  properties: {
    tenant_id: tenantScope,
    name,
    description,
    enabled: { type: 'boolean', default: true },
    trigger: workflowTrigger,
    conditions,
    actions,
  },
  required: ['name', 'trigger', 'actions'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const workflowUpdate = {
  type: 'object',
  description: 'Only the fields given change; `actions` replaces the whole list.',
  properties: { name, description, enabled: { type: 'boolean' }, trigger: workflowTrigger, conditions, actions },
  minProperties: 1,
  additionalProperties: false,
} as const satisfies JsonSchema;

const workflowFields = /* @__PURE__ */ (() =>
  ({
    workflow_id: uuid,
    tenant_id: uuid,
    name: { type: 'string' },
    description: { type: 'string' },
    enabled: { type: 'boolean' },
    trigger: workflowTrigger,
    conditions: nullable({ ...rule, type: 'object' }),
    actions: { type: 'array', items: workflowAction },
    seed_key: { type: ['string', 'null'], description: 'Which playbook of the seed this is; null for your own.' },
    next_run_at: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'A scheduled workflow that is on: when it runs next.',
    },
    created_at: timestamp,
    updated_at: timestamp,
  }) as const)();

export const workflowResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: workflowFields,
    required: Object.keys(workflowFields),
  }) as const satisfies JsonSchema)();

export const workflowPath = {
  type: 'object',
  properties: { workflow_id: uuid },
  required: ['workflow_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export { tenantScopeQuery as workflowScopeQuery } from './users.js';

export const workflowListQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: {
        ...tenantScope,
        description: 'The tenant whose workflows to list: your own (only SUPER_ADMIN may name another).',
      },
      trigger_type: { type: 'string', enum: TRIGGER_TYPES },
      enabled: { type: 'boolean' },
      ...pagingProperties,
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const workflowRunRequest = {
  type: 'object',
  description: "The run's input: the incident (or event) it works on, and any values its rules read as `input.<name>`.",
  properties: {
    incident_id: uuid,
    event_id: uuid,
    values: {
      type: 'object',
      maxProperties: 20,
      additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
    },
  },
  additionalProperties: false,
} as const satisfies JsonSchema;

const stepFields = /* @__PURE__ */ (() =>
  ({
    index: { type: 'integer' },
    type: { type: 'string', enum: ACTION_TYPES },
    status: { type: 'string', enum: STEP_STATUSES },
    attempts: { type: 'integer', description: 'Times it was tried.' },
    started_at: nullable(timestamp),
    ended_at: nullable(timestamp),
    result: {
      type: ['object', 'null'],
      description:
        'What it did: the incident opened or changed, the answer of the integration, the run started, when a wait ends.',
    },
    error: { type: ['string', 'null'], description: 'Why the last try failed.' },
  }) as const)();

export const workflowRunResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      run_id: uuid,
      workflow_id: uuid,
      tenant_id: uuid,
      status: { type: 'string', enum: RUN_STATUSES },
      trigger: {
        type: 'object',
        description: 'What started it: the bus message (its type and id), the schedule, a person, or another run.',
        properties: {
          type: { type: 'string' },
          message_id: { type: ['string', 'null'] },
          by: {
            type: ['string', 'null'],
            description: 'Who ran a playbook, or the run that started this one (`run:<id>`).',
          },
        },
        required: ['type', 'message_id', 'by'],
      },
      incident_id: { type: ['string', 'null'], format: 'uuid' },
      event_id: { type: ['string', 'null'], format: 'uuid' },
      input: { type: 'object' },
      steps: { type: 'array', items: { type: 'object', properties: stepFields, required: Object.keys(stepFields) } },
      resume_at: { ...nullable(timestamp), description: 'A waiting run: when its wait ends.' },
      error: { type: ['string', 'null'] },
      started_at: timestamp,
      ended_at: nullable(timestamp),
    },
    required: [
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
    ],
  }) as const satisfies JsonSchema)();

export const workflowRunPath = {
  type: 'object',
  properties: { workflow_id: uuid, run_id: uuid },
  required: ['workflow_id', 'run_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const workflowRunsQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: { tenant_id: tenantScope, status: { type: 'string', enum: RUN_STATUSES }, ...pagingProperties },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();
