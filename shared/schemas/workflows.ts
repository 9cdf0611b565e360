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
  type ActionType,
  type TriggerType,
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

const triggerFields = /* @__PURE__ */ (() =>
  ({
    event_types: {
      type: 'array',
      items: { type: 'string', enum: EVENT_TYPES },
      minItems: 1,
      maxItems: EVENT_TYPES.length,
      uniqueItems: true,
      description: 'The event types that start it (all types when absent).',
    },
    changes: {
      type: 'array',
      items: { type: 'string', enum: INCIDENT_CHANGES },
      minItems: 1,
      maxItems: INCIDENT_CHANGES.length,
      uniqueItems: true,
    },
    every_minutes: { type: 'integer', minimum: 5, maximum: 10_080 },
  }) as const)();

/** The fields each trigger type takes besides `type` (its branch of the `oneOf`). */
export const TRIGGER_FIELDS = {
  event: { required: [], optional: ['event_types'] },
  incident: { required: ['changes'], optional: [] },
  schedule: { required: ['every_minutes'], optional: [] },
  manual: { required: [], optional: [] },
} as const satisfies Record<
  TriggerType,
  { required: readonly (keyof typeof triggerFields)[]; optional: readonly (keyof typeof triggerFields)[] }
>;

const TRIGGER_WORDS: Record<TriggerType, string> = {
  event: 'An event stored, of one of `event_types` (all types when absent).',
  incident: 'One of the incident changes in `changes`.',
  schedule: 'Every `every_minutes` minutes.',
  manual: 'A playbook, run by `POST /api/v1/workflows/{id}/run`.',
};

/** One branch of a tagged union: `type` and the named fields, exactly. */
function typeBranch(
  type: string,
  description: string,
  fields: Record<string, unknown>,
  names: { required: readonly string[]; optional: readonly string[] },
  always: Record<string, unknown> = {},
): JsonSchema {
  return {
    type: 'object',
    title: type,
    description,
    properties: {
      type: { type: 'string', const: type },
      ...always,
      ...Object.fromEntries([...names.required, ...names.optional].map((n) => [n, fields[n]])),
    },
    required: ['type', ...names.required],
    additionalProperties: false,
  };
}

/** The flat shape of a trigger: how the domain reads it (types only; the schema is the union). */
type FlatTrigger = {
  type: 'object';
  properties: { type: { type: 'string'; enum: typeof TRIGGER_TYPES } } & typeof triggerFields;
  required: ['type'];
  additionalProperties: false;
};

/** What starts a workflow: one branch per `type` (a `oneOf` with a discriminator). */
export const workflowTrigger = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description: `One body per \`type\`. ${TRIGGER_TYPES.map((t) => `\`${t}\`: ${TRIGGER_WORDS[t]}`).join(' ')}`,
    properties: { type: { type: 'string', enum: TRIGGER_TYPES } },
    required: ['type'],
    discriminator: { propertyName: 'type' },
    oneOf: TRIGGER_TYPES.map((t) => typeBranch(t, TRIGGER_WORDS[t], triggerFields, TRIGGER_FIELDS[t])),
  }) as unknown as FlatTrigger)();

const actionFields = /* @__PURE__ */ (() =>
  ({
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
  }) as const)();
type ActionField = keyof typeof actionFields;

/** The fields each action type takes besides `type` and `if` (its branch of the `oneOf`). */
export const ACTION_FIELDS = {
  create_incident: { required: ['title'], optional: ['severity', 'description'] },
  update_incident: { required: [], optional: ['severity', 'assignee_id', 'status'] },
  escalate: { required: [], optional: ['reason'] },
  add_note: { required: ['text'], optional: [] },
  notify_integration: { required: ['integration_id'], optional: ['message'] },
  send_webhook: { required: ['webhook_id'], optional: ['message'] },
  run_workflow: { required: ['workflow_id'], optional: [] },
  wait: { required: ['minutes'], optional: [] },
} as const satisfies Record<ActionType, { required: readonly ActionField[]; optional: readonly ActionField[] }>;

const ACTION_WORDS: Record<ActionType, string> = {
  create_incident: 'Opens an incident, linked to the triggering event; later steps act on it.',
  update_incident:
    "Changes the run's incident (the trigger's, the input's, or the one a step opened): at least one of `severity`, `assignee_id`, `status`.",
  escalate: "Escalates the run's incident.",
  add_note: "Adds a note to the run's incident.",
  notify_integration: 'Tells an integration of the tenant (Slack, Teams, PagerDuty, email, signed HTTP).',
  send_webhook: 'One signed delivery of type `workflow.action` to a webhook subscription of the tenant.',
  run_workflow: "Runs another workflow of the tenant with this run's data.",
  wait: 'A durable timer, then the next steps (give them an `if`: "escalate if still not acknowledged").',
};

const stepIf = /* @__PURE__ */ (() =>
  ({
    ...rule,
    description:
      "Checked when the step's turn comes, against the run's data then (the incident as it is at that moment); false skips the step. A JSON Logic rule, as `conditions`.",
  }) as const)();

/** The flat shape of a step: how the domain reads it (types only; the schema is the union). */
type FlatAction = {
  type: 'object';
  properties: { type: { type: 'string'; enum: typeof ACTION_TYPES }; if: typeof stepIf } & typeof actionFields;
  required: ['type'];
  additionalProperties: false;
};

/**
 * One step: one branch per `type` (a `oneOf` with a discriminator), each with exactly its
 * fields. What the schema cannot say (the rules' operators, targets of the tenant, an incident
 * to act on, cycles) shared/domain/workflows/definitions.ts checks. `if` is checked when the
 * step's turn comes, against the run's data at that moment: false skips the step.
 */
export const workflowAction = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description:
      "One step; `type` decides which fields it takes (one body per `type`). `update_incident`, `escalate` and `add_note` act on the run's incident: the trigger's (an `incident` trigger), the input's (a `manual` one), or the one a `create_incident` step before it opened; without one the workflow is refused (422 at the step's `type`).",
    properties: { type: { type: 'string', enum: ACTION_TYPES } },
    required: ['type'],
    discriminator: { propertyName: 'type' },
    oneOf: ACTION_TYPES.map((t) => {
      const branch = typeBranch(t, ACTION_WORDS[t], actionFields, ACTION_FIELDS[t], { if: stepIf });
      // A change that changes nothing is refused: one of its fields at least.
      return t === 'update_incident'
        ? {
            ...branch,
            anyOf: ACTION_FIELDS.update_incident.optional.map((f) => ({
              properties: { [f]: actionFields[f] },
              required: [f],
            })),
          }
        : branch;
    }),
  }) as unknown as FlatAction)();

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
