/** The `/v1` developer API: keys, usage, and the answers it shares with `/api/v1` (docs/developer-api.md). */
import { timestamp, uuid } from './common.js';
import { latitude, longitude } from './geo.js';
import type { JsonSchema } from './json-schema.js';
import { ipAllowlist } from './portal.js';
import { email } from './users.js';
import { mmsi } from './vessels.js';
import { DEVELOPER_ENDPOINTS, DEVELOPER_TIERS } from '../vocabulary/developer.js';

export const keyIssueRequest = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      email: {
        ...email,
        description: 'Yours: a free key makes a new developer account (and tenant) for this email, once.',
      },
      tier: {
        type: 'string',
        enum: DEVELOPER_TIERS,
        description:
          '`free` is self-serve; `pro` and `enterprise` need a TENANT_ADMIN bearer token of a tenant whose plan allows them.',
      },
      name: { type: 'string', minLength: 1, maxLength: 100, pattern: '\\S', description: 'What the key is for.' },
      rate_limit: {
        type: 'integer',
        minimum: 1,
        maximum: 100_000,
        description: 'Calls a minute: enterprise keys only (1,000 unless given).',
      },
      ip_allowlist: ipAllowlist,
    },
    required: ['email', 'tier'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const keyIssueResponse = {
  type: 'object',
  properties: {
    api_key: {
      type: 'string',
      description: 'Shown once: send it as `Authorization: Bearer <api_key>`. Only its hash is kept.',
    },
    key_id: uuid,
    tenant_id: uuid,
    tier: { type: 'string', enum: DEVELOPER_TIERS },
    rate_limit: { type: 'integer', description: 'Calls a minute.' },
    monthly_quota: { type: ['integer', 'null'], description: 'Calls a calendar month (UTC); null: unlimited.' },
    endpoints: { type: 'array', items: { type: 'string', enum: DEVELOPER_ENDPOINTS } },
  },
  required: ['api_key', 'key_id', 'tenant_id', 'tier', 'rate_limit', 'monthly_quota', 'endpoints'],
} as const satisfies JsonSchema;

export const keyPath = {
  type: 'object',
  properties: { key_id: uuid },
  required: ['key_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const usageResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tier: { type: 'string', enum: DEVELOPER_TIERS },
      key_id: { ...uuid, type: ['string', 'null'] },
      tenant_id: uuid,
      endpoints: { type: 'array', items: { type: 'string', enum: DEVELOPER_ENDPOINTS } },
      rate_limit: {
        type: 'object',
        properties: {
          per_minute: { type: 'integer' },
          remaining: { type: 'integer' },
          reset: { type: 'integer', description: 'Unix seconds.' },
        },
        required: ['per_minute', 'remaining', 'reset'],
      },
      monthly: {
        type: 'object',
        properties: {
          quota: { type: ['integer', 'null'] },
          used: { type: 'integer' },
          remaining: { type: ['integer', 'null'] },
          resets_at: timestamp,
        },
        required: ['quota', 'used', 'remaining', 'resets_at'],
      },
    },
    required: ['tier', 'key_id', 'tenant_id', 'endpoints', 'rate_limit', 'monthly'],
  }) as const satisfies JsonSchema)();

export const v1VesselProfileQuery = {
  type: 'object',
  properties: {
    mmsi,
    hours: {
      type: 'integer',
      minimum: 1,
      maximum: 168,
      default: 24,
      description: 'The behaviour window (hours back from now).',
    },
  },
  required: ['mmsi'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const v1CableRiskQuery = {
  type: 'object',
  properties: {
    lat: latitude,
    lon: longitude,
    hours: {
      type: 'integer',
      minimum: 1,
      maximum: 168,
      default: 24,
      description: 'The activity window (hours back from now).',
    },
  },
  required: ['lat', 'lon'],
  additionalProperties: false,
} as const satisfies JsonSchema;
