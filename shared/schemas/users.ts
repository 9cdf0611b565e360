/** Users of a tenant. */
import { pagingProperties, timestamp, uuid } from './common.js';
import type { JsonSchema } from './json-schema.js';
import { PASSWORD_POLICY, PASSWORD_RULES } from '../vocabulary/password-policy.js';

export const roleSchema = {
  type: 'string',
  enum: ['VIEWER', 'OPERATOR', 'TENANT_ADMIN', 'SUPER_ADMIN'],
  description:
    'VIEWER reads; OPERATOR also works events and incidents; TENANT_ADMIN also manages the tenant; SUPER_ADMIN runs the platform.',
} as const;

export const email = { type: 'string', format: 'email', maxLength: 254 } as const;
export const password = /* @__PURE__ */ (() =>
  ({
    type: 'string',
    minLength: PASSWORD_POLICY.minLength,
    maxLength: 256,
    description: `Must meet the password policy: ${PASSWORD_RULES}.`,
  }) as const)();
const userName = { type: ['string', 'null'], maxLength: 200, description: 'Display name.' } as const;

/** `tenant_id` as a body field or query parameter: the caller's own tenant unless SUPER_ADMIN. */
export const tenantScope = /* @__PURE__ */ (() =>
  ({
    ...uuid,
    description:
      "The tenant to act in. Defaults to the caller's own; only SUPER_ADMIN may name another (others get 404).",
  }) as const)();

export const userCreate = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: tenantScope,
      email,
      role: roleSchema,
      name: userName,
      password: { ...password, description: `${password.description} With a password the user can log in at once.` },
    },
    required: ['email', 'role'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const userUpdate = {
  type: 'object',
  properties: {
    name: userName,
    role: roleSchema,
    active: {
      type: 'boolean',
      description: 'An inactive user cannot log in or call the API; their API keys stop working.',
    },
  },
  minProperties: 1,
  additionalProperties: false,
} as const satisfies JsonSchema;

export const userResponse = {
  type: 'object',
  properties: {
    user_id: uuid,
    tenant_id: uuid,
    email: { type: 'string' },
    name: userName,
    role: roleSchema,
    active: { type: 'boolean' },
    created_at: timestamp,
    updated_at: timestamp,
  },
  required: ['user_id', 'tenant_id', 'email', 'name', 'role', 'active', 'created_at', 'updated_at'],
} as const satisfies JsonSchema;

export const userPath = {
  type: 'object',
  properties: { user_id: uuid },
  required: ['user_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const tenantScopeQuery = {
  type: 'object',
  properties: { tenant_id: tenantScope },
  additionalProperties: false,
} as const satisfies JsonSchema;

export const userListQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: { tenant_id: tenantScope, ...pagingProperties },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();
