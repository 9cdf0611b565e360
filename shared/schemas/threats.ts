/** Active threats: a threat definition matching in a zone, with its counts and times (shared/domain/threats/active.ts). */
import { pagingProperties, timestamp, uuid } from './common.js';
import type { JsonSchema } from './json-schema.js';
import { tenantScope } from './users.js';
import { INCIDENT_SEVERITIES } from '../vocabulary/incidents.js';
import { EVENT_TYPES } from '../vocabulary/event-types.js';

const THREAT_STATUSES = ['active', 'dismissed'] as const;

const threatFields = /* @__PURE__ */ (() =>
  ({
    threat_id: {
      ...uuid,
      description: 'Named from the library, the definition and the zone: the same threat keeps its id.',
    },
    tenant_id: uuid,
    library_id: uuid,
    definition_id: { type: 'string' },
    name: { type: 'string', description: "The definition's name when it last matched." },
    severity: { type: 'string', enum: INCIDENT_SEVERITIES },
    zone_id: {
      ...uuid,
      type: ['string', 'null'],
      description: 'The zone it matches in; null for matches outside zones.',
    },
    status: {
      type: 'string',
      enum: THREAT_STATUSES,
      description: '`dismissed` until it matches again, then `active`.',
    },
    count: { type: 'integer', minimum: 1, description: 'Events that matched it, each counted once.' },
    first_seen: { ...timestamp, description: 'When the earliest matching event occurred.' },
    last_seen: { ...timestamp, description: 'When the latest matching event occurred.' },
    incident_ids: {
      type: 'array',
      items: uuid,
      description: 'Incidents opened from or linked to its events (at most 100).',
    },
    dismissed_at: { ...timestamp, type: ['string', 'null'] },
    dismissed_by: { type: ['string', 'null'], description: 'The user (or API key) who dismissed it last.' },
    dismiss_reason: { type: ['string', 'null'] },
  }) as const)();

export const threatResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: threatFields,
    required: Object.keys(threatFields),
  }) as const satisfies JsonSchema)();

export const threatListQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: {
        ...tenantScope,
        description: 'The tenant whose threats to list: your own (only SUPER_ADMIN may name another).',
      },
      status: {
        type: 'string',
        enum: [...THREAT_STATUSES, 'all'],
        default: 'active',
        description:
          'Only threats in this status: `active` unless given (the spec lists active threats), `all` for both.',
      },
      severity: { type: 'string', enum: INCIDENT_SEVERITIES },
      zone_id: uuid,
      environment_id: {
        ...uuid,
        description: "Threats in this environment's zones (404 when it is not your tenant's environment).",
      },
      event_type: {
        type: 'string',
        enum: EVENT_TYPES,
        description: 'Threats whose definition matches events of this type (its `match.event_types` names it).',
      },
      library_id: uuid,
      definition_id: { type: 'string', maxLength: 64 },
      within_hours: {
        type: 'integer',
        minimum: 1,
        maximum: 24 * 90,
        default: 24,
        description: 'Seen within this many hours (default 24: what is matching now).',
      },
      ...pagingProperties,
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const threatPath = {
  type: 'object',
  properties: { threat_id: uuid },
  required: ['threat_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const threatScopeQuery = {
  type: 'object',
  properties: { tenant_id: tenantScope },
  additionalProperties: false,
} as const satisfies JsonSchema;

export const threatDismiss = {
  type: 'object',
  properties: {
    reason: {
      type: 'string',
      minLength: 1,
      maxLength: 1000,
      description: 'Why: kept on the threat and in the audit log.',
    },
  },
  additionalProperties: false,
} as const satisfies JsonSchema;
