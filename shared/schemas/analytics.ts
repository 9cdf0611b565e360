/**
 * Analytics (ThreatTimeSeriesResponse, AnalyticsSummaryResponse): figures read from counters that
 * a stream worker keeps, by UTC hour (docs/analytics.md says what each figure means).
 */
import { INCIDENT_SEVERITIES, INCIDENT_STATUSES } from '../vocabulary/incidents.js';
import { nullable, timestamp, uuid } from './common.js';
import { EVENT_TYPES } from '../vocabulary/event-types.js';
import type { JsonSchema } from './json-schema.js';
import { tenantScope } from './users.js';

/** The spec's Aggregation: UTC hours, UTC days, ISO weeks (Monday 00:00 UTC). */
export const AGGREGATIONS = ['hour', 'day', 'week'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

/** How far apart `from_date` and `to_date` may be, at most. */
export const MAX_WINDOW_DAYS = 400;
/** The spec's "analytics window defaults": from 30 days before `to_date` (now) to now. */
export const DEFAULT_WINDOW_DAYS = 30;

export const SLA_OUTCOMES = ['met', 'breached', 'pending'] as const;
export type SlaOutcome = (typeof SLA_OUTCOMES)[number];

const window = /* @__PURE__ */ (() =>
  ({
    from_date: {
      ...timestamp,
      description: `Start of the window. Default: ${DEFAULT_WINDOW_DAYS} days before \`to_date\` (so 30 days before now when neither is given). Rounded down to its UTC hour. At most ${MAX_WINDOW_DAYS} days before \`to_date\`.`,
    },
    to_date: {
      ...timestamp,
      description: 'End of the window. Default: now. Rounded up to a whole UTC hour; the window is at least one hour.',
    },
  }) as const)();

const eventType = { type: 'string', enum: EVENT_TYPES } as const;

export const analyticsThreatsQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: tenantScope,
      zone_id: {
        ...uuid,
        description: "Only events that matched this zone's geofence. 404 when it is not a zone of the tenant.",
      },
      environment_id: {
        ...uuid,
        description:
          'Only events of this environment. 404 when it is not an environment of the tenant. With `zone_id`: a zone of another environment gives zeros.',
      },
      threat_type: { ...eventType, description: 'Only events of this type (an EventType).' },
      ...window,
      aggregation: {
        type: 'string',
        enum: AGGREGATIONS,
        default: 'day',
        description: 'Bucket size: a UTC hour, a UTC day, or an ISO week (from Monday 00:00 UTC).',
      },
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const analyticsSummaryQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: { ...uuid, description: "The tenant: the caller's own, or any for SUPER_ADMIN (others get 404)." },
      ...window,
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

const windowFields = /* @__PURE__ */ (() =>
  ({
    timezone: { type: 'string', enum: ['UTC'], description: 'Buckets and windows are in UTC.' },
    from_date: {
      ...timestamp,
      description: 'The window used: `from_date` as asked, rounded down to its UTC hour. Included.',
    },
    to_date: {
      ...timestamp,
      description: 'The window used: `to_date` as asked, rounded up to a whole UTC hour. Excluded.',
    },
  }) as const)();

const averageScore = {
  type: ['number', 'null'],
  minimum: 0,
  maximum: 1,
  description: "Mean of the events' `threat_score` as computed at ingest, rounded to 0.001; null without events.",
} as const;

export const threatBucket = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description:
      'One bucket. The first and the last are cut to the window: a bucket counts only the hours of the window.',
    properties: {
      start: { ...timestamp, description: 'Included.' },
      end: { ...timestamp, description: 'Excluded.' },
      count: { type: 'integer', minimum: 0, description: 'Events that occurred (`occurred_at`) in the bucket.' },
      avg_threat_score: averageScore,
    },
    required: ['start', 'end', 'count', 'avg_threat_score'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const threatTimeSeriesResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description:
      "ThreatTimeSeriesResponse: the tenant's events by when they occurred (`occurred_at`), in UTC buckets, every bucket of the window listed, empty ones with 0. Read from counters kept as events are stored (about a second behind); see docs/analytics.md.",
    properties: {
      tenant_id: uuid,
      ...windowFields,
      aggregation: { type: 'string', enum: AGGREGATIONS },
      zone_id: nullable(uuid),
      environment_id: nullable(uuid),
      threat_type: nullable(eventType),
      buckets: { type: 'array', items: threatBucket },
      total: { type: 'integer', minimum: 0, description: 'Events in the window.' },
      avg_threat_score: {
        ...averageScore,
        description: 'Mean threat score over the window, rounded to 0.001; null without events.',
      },
    },
    required: [
      'tenant_id',
      'timezone',
      'from_date',
      'to_date',
      'aggregation',
      'zone_id',
      'environment_id',
      'threat_type',
      'buckets',
      'total',
      'avg_threat_score',
    ],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

const countsOf = (names: readonly string[], description: string) =>
  ({
    type: 'object',
    description,
    properties: Object.fromEntries(names.map((n) => [n, { type: 'integer', minimum: 0 }])),
    required: [...names],
    additionalProperties: false,
  }) as const;

const responseTime = (what: string) =>
  ({
    type: 'object',
    description: `Seconds to ${what}, over the incidents of the window that were ${what === 'acknowledge' ? 'acknowledged' : 'resolved'}: as \`time_to_${what}_seconds\` of IncidentResponse (from confirmation, or creation when never confirmed, to the first time it became ${what === 'acknowledge' ? '`acknowledged`' : '`resolved`'}; whole seconds). Percentiles by the nearest-rank method: the value at rank ceil(p × count) of the sorted durations, so always a duration that occurred. Null figures when count is 0.`,
    properties: {
      count: { type: 'integer', minimum: 0 },
      median_seconds: { type: ['integer', 'null'], minimum: 0, description: 'p = 0.5.' },
      p90_seconds: { type: ['integer', 'null'], minimum: 0, description: 'p = 0.9.' },
    },
    required: ['count', 'median_seconds', 'p90_seconds'],
    additionalProperties: false,
  }) as const;

export const analyticsSummaryResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description:
      'AnalyticsSummaryResponse: the incidents created in the window (as they are now), their response times and SLA, and the events that occurred in the window by type. Read from counters kept as incidents and events change (about a second behind); see docs/analytics.md.',
    properties: {
      tenant_id: uuid,
      ...windowFields,
      incidents: {
        type: 'object',
        description: 'Incidents created (`created_at`) in the window.',
        properties: {
          total: { type: 'integer', minimum: 0 },
          by_status: countsOf(INCIDENT_STATUSES, 'By their status now; every status listed.'),
          by_severity: countsOf(INCIDENT_SEVERITIES, 'By their severity now; every severity listed.'),
        },
        required: ['total', 'by_status', 'by_severity'],
        additionalProperties: false,
      },
      response_time: {
        type: 'object',
        properties: { acknowledge: responseTime('acknowledge'), resolve: responseTime('resolve') },
        required: ['acknowledge', 'resolve'],
        additionalProperties: false,
      },
      sla: {
        type: 'object',
        description:
          "The incidents of the window with an SLA (confirmed ones: `sla_due_at` is set on confirmation), by outcome as the service's SLA clock records it: `breached` once `sla_breached_at` is set (nobody acknowledged by `sla_due_at`, or it left `confirmed` after it); `pending` while it is `confirmed` and not breached; `met` when it left `confirmed` (acknowledged, taken in progress or cancelled) in time.",
        properties: {
          with_sla: { type: 'integer', minimum: 0 },
          met: { type: 'integer', minimum: 0 },
          breached: { type: 'integer', minimum: 0 },
          pending: { type: 'integer', minimum: 0 },
          compliance_rate: {
            type: ['number', 'null'],
            minimum: 0,
            maximum: 1,
            description: 'met / (met + breached), rounded to 0.0001; null when both are 0.',
          },
        },
        required: ['with_sla', 'met', 'breached', 'pending', 'compliance_rate'],
        additionalProperties: false,
      },
      threats_by_type: countsOf(EVENT_TYPES, 'Events that occurred in the window, by type; every type listed.'),
      threats_total: { type: 'integer', minimum: 0 },
    },
    required: [
      'tenant_id',
      'timezone',
      'from_date',
      'to_date',
      'incidents',
      'response_time',
      'sla',
      'threats_by_type',
      'threats_total',
    ],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();
