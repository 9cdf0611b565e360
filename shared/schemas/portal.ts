/** The account portal: registration, plans and API keys. */
import { linkTokenQuery, pagingProperties, timestamp, uuid } from './common.js';
import type { JsonSchema } from './json-schema.js';
import { TENANT_PLANS } from './tenants.js';
import { email, password, roleSchema, tenantScope } from './users.js';

export const registerRequest = {
  type: 'object',
  properties: {
    email,
    password,
    organization_name: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
    name: { type: 'string', maxLength: 200, description: 'Your display name.' },
  },
  required: ['email', 'password', 'organization_name'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const registerResponse = {
  type: 'object',
  properties: {
    tenant_id: uuid,
    user_id: uuid,
    email: { type: 'string' },
    role: { type: 'string', enum: ['TENANT_ADMIN'] },
    plan: { type: 'string', enum: ['free'] },
    status: {
      type: 'string',
      enum: ['pending_confirmation', 'active'],
      description:
        '`pending_confirmation`: a link was mailed to the address; the account logs in once it is used. `active`: confirmed.',
    },
  },
  required: ['tenant_id', 'user_id', 'email', 'role', 'plan', 'status'],
} as const satisfies JsonSchema;

export const registerConfirmQuery = /* @__PURE__ */ linkTokenQuery('confirmation');

const limit = (description: string) =>
  ({ type: ['integer', 'null'], minimum: 0, description: `${description}; null means no limit.` }) as const;

export const planSchema = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      plan: { type: 'string', enum: TENANT_PLANS },
      name: { type: 'string' },
      description: { type: 'string' },
      limits: {
        type: 'object',
        properties: {
          requests_per_minute: limit('API requests per minute'),
          users: limit('Users'),
          sensors: limit('Sensors'),
          retention_days: limit(
            "How long events are kept and shown, in days (at most; the tenant's configured retention may be shorter)",
          ),
        },
        required: ['requests_per_minute', 'users', 'sensors', 'retention_days'],
      },
      features: { type: 'array', items: { type: 'string' } },
    },
    required: ['plan', 'name', 'description', 'limits', 'features'],
  }) as const satisfies JsonSchema)();

const keyRole = /* @__PURE__ */ (() =>
  ({
    ...roleSchema,
    description: "What the key may do; at most the creator's own role. Defaults to VIEWER.",
  }) as const)();

export const ipAllowlist = {
  type: 'array',
  description: 'Client addresses or CIDR ranges (IPv4 or IPv6) the key works from; empty or absent means anywhere.',
  items: { type: 'string', minLength: 2, maxLength: 49 },
  maxItems: 20,
  uniqueItems: true,
} as const;

export const apiKeyCreate = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: tenantScope,
      name: { type: 'string', minLength: 1, maxLength: 100, pattern: '\\S', description: 'What the key is for.' },
      role: keyRole,
      expires_at: { ...timestamp, description: 'When the key stops working; must be in the future. Absent: never.' },
      ip_allowlist: ipAllowlist,
    },
    required: ['name'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

const apiKeyFields = /* @__PURE__ */ (() =>
  ({
    key_id: uuid,
    tenant_id: uuid,
    name: { type: 'string' },
    role: roleSchema,
    prefix: { type: 'string', description: 'The first characters of the key, to tell keys apart.' },
    expires_at: { ...timestamp, type: ['string', 'null'] },
    ip_allowlist: { type: 'array', items: { type: 'string' } },
    created_by: uuid,
    created_at: timestamp,
  }) as const)();

export const apiKeyResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: apiKeyFields,
    required: Object.keys(apiKeyFields),
  }) as const satisfies JsonSchema)();

export const apiKeyCreated = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      ...apiKeyFields,
      api_key: { type: 'string', description: 'The key itself. Shown this once: only its hash is kept.' },
    },
    required: [...Object.keys(apiKeyFields), 'api_key'],
  }) as const satisfies JsonSchema)();

export const apiKeyPath = {
  type: 'object',
  properties: { key_id: uuid },
  required: ['key_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const apiKeyListQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: { tenant_id: tenantScope, ...pagingProperties },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

/** Who the caller is: `GET /api/v1/portal/me`. */
export const meResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      via: { type: 'string', enum: ['bearer', 'api_key'], description: 'The credential this request came with.' },
      user_id: { ...uuid, description: 'The user; for an API key, the user who made it.' },
      email: { type: ['string', 'null'], description: "The user's email (null for an API key)." },
      role: { ...roleSchema, description: "What the caller may do (an API key's role, bounded by its creator's)." },
      api_key_id: { ...uuid, type: ['string', 'null'], description: 'The key used, for an API key; null otherwise.' },
      tenant: {
        type: 'object',
        properties: {
          tenant_id: { ...uuid, description: 'What `tenant_id` parameters take for your own data.' },
          name: { type: 'string' },
          plan: { type: 'string', enum: TENANT_PLANS },
          status: { type: 'string', enum: ['active', 'suspended'] },
        },
        required: ['tenant_id', 'name', 'plan', 'status'],
      },
      limits: planSchema.properties.limits,
    },
    required: ['via', 'user_id', 'email', 'role', 'api_key_id', 'tenant', 'limits'],
  }) as const satisfies JsonSchema)();
