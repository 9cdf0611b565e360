/** Tenants and their configuration. */
import { INCIDENT_SEVERITIES, type IncidentSeverity } from '../vocabulary/incidents.js';
import { timestamp, uuid } from './common.js';
import type { JsonSchema } from './json-schema.js';

export const TENANT_PLANS = ['free', 'pro', 'enterprise'] as const;
export const TENANT_STATUSES = ['active', 'suspended'] as const;
/** The incident severities (one list): what notifications.min_severity may name. */
export const SEVERITIES = INCIDENT_SEVERITIES;

const name = {
  type: 'string',
  minLength: 1,
  maxLength: 200,
  pattern: '\\S',
  description: 'Organisation name.',
} as const;
const plan = {
  type: 'string',
  enum: TENANT_PLANS,
  description: 'Commercial plan; sets the limits of the tenant.',
} as const;
const status = {
  type: 'string',
  enum: TENANT_STATUSES,
  description: 'A suspended tenant keeps its data, but its users and keys are refused.',
} as const;
const contactEmail = {
  type: ['string', 'null'],
  format: 'email',
  maxLength: 254,
  description: 'Who to contact about this tenant.',
} as const;

export const tenantCreate = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: { name, plan: { ...plan, default: 'free' }, contact_email: contactEmail },
    required: ['name'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const tenantUpdate = {
  type: 'object',
  properties: { name, plan, status, contact_email: contactEmail },
  minProperties: 1,
  additionalProperties: false,
} as const satisfies JsonSchema;

export const tenantResponse = {
  type: 'object',
  properties: {
    tenant_id: uuid,
    name: { type: 'string' },
    plan,
    status,
    contact_email: contactEmail,
    created_at: timestamp,
    updated_at: timestamp,
  },
  required: ['tenant_id', 'name', 'plan', 'status', 'contact_email', 'created_at', 'updated_at'],
} as const satisfies JsonSchema;

export const tenantPath = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: { tenant_id: { ...uuid, description: 'The tenant.' } },
    required: ['tenant_id'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

const minutes = { type: 'integer', minimum: 1, maximum: 43200 } as const;

const slaMinutes = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description: 'Time to acknowledge an incident, in minutes, by severity. Past it the incident escalates.',
    properties: {
      low: { ...minutes, description: 'Minutes to acknowledge a low incident.' },
      medium: { ...minutes, description: 'Minutes to acknowledge a medium incident.' },
      high: { ...minutes, description: 'Minutes to acknowledge a high incident.' },
      critical: { ...minutes, description: 'Minutes to acknowledge a critical incident.' },
    },
    additionalProperties: false,
  }) as const)();

const escalationLevel = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      after_minutes: {
        ...minutes,
        description:
          "Minutes an unacknowledged incident stays at this level before it escalates to the next one (the top level's value is not used). Level 1 is reached when the SLA is breached.",
      },
      notify_roles: {
        type: 'array',
        description: "Roles of the tenant's users told when an incident reaches this level.",
        items: { type: 'string', enum: ['VIEWER', 'OPERATOR', 'TENANT_ADMIN'] },
        minItems: 1,
        uniqueItems: true,
      },
      integration_ids: {
        type: 'array',
        description:
          "Integrations of this tenant (`integration_id`s from `/api/v1/integrations`) told when an incident reaches this level, besides `notify_roles` and `notifications.email_recipients`: each gets one message in its own format with an acknowledgement link of its own. The first level (`levels[0]`) is told when an incident is confirmed (escalation level 0) and again when its SLA is breached (level 1). An id that is not one of the tenant's integrations is answered 404, as an unknown one; an integration deleted or disabled later is skipped.",
        items: uuid,
        maxItems: 10,
        uniqueItems: true,
        default: [],
      },
    },
    required: ['after_minutes', 'notify_roles'],
    additionalProperties: false,
  }) as const)();

const escalationPolicy = {
  type: 'object',
  description:
    'Escalation levels in order; the number of levels is the highest escalation level. The first level is told when an incident is confirmed (escalation level 0) and again when its SLA is breached (level 1); level k + 1 tells `levels[k]`.',
  properties: { levels: { type: 'array', items: escalationLevel, minItems: 1, maxItems: 10 } },
  required: ['levels'],
  additionalProperties: false,
} as const;

const retentionDays = {
  type: 'object',
  description: 'Days each kind of record is kept before it expires.',
  properties: {
    events: {
      type: 'integer',
      minimum: 1,
      maximum: 3650,
      description:
        "Days an event is kept, at most the plan's retention (docs/plans.md): reads hide it from then on, and it expires (DynamoDB TTL) a day later.",
    },
    incidents: {
      type: 'integer',
      minimum: 1,
      maximum: 3650,
      description: 'Days an incident is to be kept. Not applied yet: incidents are kept.',
    },
    audit_logs: {
      type: 'integer',
      minimum: 365,
      maximum: 3650,
      description: 'Days an audit entry is to be kept, at least a year. Not applied yet: entries are kept.',
    },
  },
  additionalProperties: false,
} as const;

const hhmm = { type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$' } as const;

const businessHours = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description: 'Working hours in the tenant timezone; events outside them weigh more in threat scoring.',
    properties: {
      start: { ...hhmm, description: 'Start of the working day, HH:MM.' },
      end: { ...hhmm, description: 'End of the working day, HH:MM.' },
      days: {
        type: 'array',
        description: 'ISO weekdays, 1 = Monday .. 7 = Sunday.',
        items: { type: 'integer', minimum: 1, maximum: 7 },
        uniqueItems: true,
        maxItems: 7,
      },
    },
    additionalProperties: false,
  }) as const)();

const notifications = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      min_severity: { type: 'string', enum: SEVERITIES, description: 'Least severity that notifies anyone.' },
      email_recipients: {
        type: 'array',
        description:
          'Addresses told of every incident at or above `min_severity`, at every level told, besides the roles and integrations of that level: one plain-text email each, with an acknowledgement link of its own. Skipped where the deployment has no sender address.',
        items: { type: 'string', format: 'email', maxLength: 254 },
        maxItems: 50,
        uniqueItems: true,
      },
      acknowledgement_link_ttl_minutes: { ...minutes, description: 'How long an acknowledgement link stays valid.' },
    },
    additionalProperties: false,
  }) as const)();

const configProperties = /* @__PURE__ */ (() =>
  ({
    timezone: { type: 'string', minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Oslo.' },
    sla_minutes: slaMinutes,
    escalation_policy: escalationPolicy,
    retention_days: retentionDays,
    business_hours: businessHours,
    notifications,
    incident_threshold: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      description: 'Threat score (0..1) at or above which an event opens an incident.',
    },
    sensor_heartbeat_timeout_seconds: {
      type: 'integer',
      minimum: 30,
      maximum: 86400,
      description: 'A sensor silent for longer than this reads offline; half of it, degraded.',
    },
  }) as const)();

export const tenantConfigUpdate = {
  type: 'object',
  description: 'Only the fields given change; nested objects are merged key by key, arrays are replaced.',
  properties: configProperties,
  minProperties: 1,
  additionalProperties: false,
} as const satisfies JsonSchema;

export const tenantConfig = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: { tenant_id: uuid, ...configProperties, updated_at: timestamp },
    required: ['tenant_id', ...Object.keys(configProperties), 'updated_at'],
  }) as const satisfies JsonSchema)();

/** What notification rules may name: the roles below SUPER_ADMIN. */
export interface EscalationLevel {
  after_minutes: number;
  notify_roles: ('VIEWER' | 'OPERATOR' | 'TENANT_ADMIN')[];
  /** Integrations told at this level; absent in configurations stored before they could be named (read as none). */
  integration_ids?: string[];
}

/** A tenant's configuration as stored and answered (its schema: `tenantConfig`). */
export interface TenantConfig {
  tenant_id: string;
  timezone: string;
  sla_minutes: Record<IncidentSeverity, number>;
  escalation_policy: { levels: EscalationLevel[] };
  retention_days: { events: number; incidents: number; audit_logs: number };
  business_hours: { start: string; end: string; days: number[] };
  notifications: {
    min_severity: IncidentSeverity;
    email_recipients: string[];
    acknowledgement_link_ttl_minutes: number;
  };
  incident_threshold: number;
  sensor_heartbeat_timeout_seconds: number;
  updated_at: string;
}
