/** The live status (public) and the agents (per tenant): shared/domain/operations/status.ts says how each figure is derived. */
import { nullable, pageOf, pagingProperties, timestamp } from './common.js';
import type { JsonSchema } from './json-schema.js';
import { AGENT_IDS } from '../vocabulary/agents.js';
import { tenantScope } from './users.js';

const workerStatus = { type: 'string', enum: ['active', 'idle', 'degraded'] } as const;
const componentStatus = { type: 'string', enum: ['operational', 'degraded', 'outage'] } as const;

const workerFigures = /* @__PURE__ */ (() =>
  ({
    status: workerStatus,
    reason: { type: ['string', 'null'], description: 'Why it is degraded.' },
    last_run_at: nullable(timestamp),
    last_error_at: nullable(timestamp),
    runs_24h: { type: 'integer', description: 'Invocations in the last 24 hours, all tenants together.' },
    errors_24h: { type: 'integer', description: 'Of those, the ones that failed (threw, or reported failed records).' },
    backlog: {
      type: ['integer', 'null'],
      description: 'A queue worker: messages waiting or in flight on its queue; null for the others.',
    },
    dead_letters: {
      type: ['integer', 'null'],
      description: "A queue worker: messages in its queue's dead-letter queue.",
    },
    lag_ms: {
      type: ['integer', 'null'],
      description:
        'Stream and queue workers: how long the oldest record of its last batch had waited (a stream record since its change, a message since it was sent, on its first receive); over a minute is degraded.',
    },
  }) as const)();

export const liveStatusResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      status: {
        ...componentStatus,
        description:
          '`outage` when the table does not answer; `degraded` when any component is not operational; else `operational`.',
      },
      checked_at: { ...timestamp, description: 'When this answer was computed (answers are kept 10 s).' },
      version: { type: 'string' },
      components: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            name: {
              type: 'string',
              description: '`api`, `table`, `storage`, `identity`, `event-bus`, `stream`, or `worker:<id>`.',
            },
            kind: { type: 'string', enum: ['api', 'dependency', 'worker'] },
            status: componentStatus,
            detail: { type: ['string', 'null'] },
            worker: { type: 'object', properties: workerFigures, required: Object.keys(workerFigures) },
          },
          required: ['name', 'kind', 'status', 'detail'],
        },
      },
    },
    required: ['status', 'checked_at', 'version', 'components'],
  }) as const satisfies JsonSchema)();

export const agentResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      agent_id: { type: 'string', enum: AGENT_IDS },
      name: { type: 'string' },
      description: { type: 'string' },
      status: { type: 'string', enum: ['active', 'idle', 'degraded', 'disabled'] },
      reason: { type: ['string', 'null'] },
      enabled: { type: 'boolean' },
      can_disable: { type: 'boolean' },
      when_disabled: {
        type: ['string', 'null'],
        description: 'What switching it off does for the tenant, or why it cannot be.',
      },
      workers: { type: 'array', items: { type: 'string' } },
      model: {
        type: ['string', 'null'],
        description: 'The model it uses: a Bedrock model id, Amazon Transcribe, or the offline stand-in.',
      },
      last_run_at: nullable(timestamp),
      runs_24h: workerFigures.runs_24h,
      errors_24h: workerFigures.errors_24h,
      backlog: workerFigures.backlog,
      dead_letters: workerFigures.dead_letters,
      settings: {
        type: 'object',
        description: 'What it reads from the tenant configuration (event-triage: `incident_threshold`).',
      },
    },
    required: [
      'agent_id',
      'name',
      'description',
      'status',
      'reason',
      'enabled',
      'can_disable',
      'when_disabled',
      'workers',
      'model',
      'last_run_at',
      'runs_24h',
      'errors_24h',
      'backlog',
      'dead_letters',
      'settings',
    ],
  }) as const satisfies JsonSchema)();

export const agentPath = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      agent_id: {
        type: 'string',
        minLength: 1,
        maxLength: 64,
        description: `One of ${AGENT_IDS.join(', ')}; another is 404.`,
      },
    },
    required: ['agent_id'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export { tenantScopeQuery as agentScopeQuery } from './users.js';

export const agentUpdate = {
  type: 'object',
  properties: {
    enabled: { type: 'boolean', description: 'Switch the agent off (false) or on for the tenant.' },
    settings: {
      type: 'object',
      properties: {
        incident_threshold: {
          type: 'number',
          minimum: 0,
          maximum: 1,
          description: 'event-triage: the score at or over which an event opens an incident.',
        },
      },
      minProperties: 1,
      additionalProperties: false,
    },
  },
  minProperties: 1,
  additionalProperties: false,
} as const satisfies JsonSchema;

export const agentList = /* @__PURE__ */ (() =>
  pageOf(agentResponse, 'The agents, in a page (the nine fit the default).'))();

export const agentListQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: { tenant_id: tenantScope, ...pagingProperties },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();
