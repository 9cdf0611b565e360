/**
 * Threat intelligence views: a tenant's threat libraries summed up for consumers of intelligence
 * (dashboards, analysts, other systems), without the match conditions and indicator lists.
 */
import { pagingProperties, timestamp, uuid } from './common.js';
import type { JsonSchema } from './json-schema.js';
import { INCIDENT_SEVERITIES } from '../vocabulary/incidents.js';
import { EVENT_TYPES } from '../vocabulary/event-types.js';
import { threatLibraryListQuery } from './threat-libraries.js';
import { tenantScope } from './users.js';

const bySeverity = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description: 'Active definitions by severity.',
    properties: Object.fromEntries(INCIDENT_SEVERITIES.map((s) => [s, { type: 'integer', minimum: 0 }])),
    required: [...INCIDENT_SEVERITIES],
  }) as const)();

const summaryFields = {
  library_id: uuid,
  name: { type: 'string' },
  vertical: { type: 'string' },
  active: { type: 'boolean' },
  seed_key: { type: ['string', 'null'], description: 'The seed library this is, or null for your own.' },
  definition_count: { type: 'integer', minimum: 0 },
  active_definition_count: {
    type: 'integer',
    minimum: 0,
    description: 'Definitions matched at ingest while the library is active.',
  },
  active_by_severity: bySeverity,
  event_types: {
    type: 'array',
    items: { type: 'string', enum: EVENT_TYPES },
    description: 'The event types the active definitions watch, in the order of the event type list.',
  },
  updated_at: timestamp,
} as const;

export const threatLibrarySummary = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: summaryFields,
    required: Object.keys(summaryFields),
  }) as const satisfies JsonSchema)();

export const threatIntelLibraryQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: tenantScope,
      vertical: threatLibraryListQuery.properties.vertical,
      active_only: threatLibraryListQuery.properties.active_only,
      ...pagingProperties,
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();
