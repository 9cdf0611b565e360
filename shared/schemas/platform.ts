/** Platform routes: health, the API description, login. */
import type { JsonSchema } from './json-schema.js';

export const health = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ok', 'degraded'] },
    detail: { type: 'string', description: 'When degraded: which dependencies do not answer.' },
    version: { type: 'string' },
    handlers: {
      type: 'string',
      enum: ['sources', 'bundles'],
      description:
        'Under the local runtime only: whether it serves the TypeScript sources or the bundles `cdk synth` builds (`GATEHOUSE_HANDLERS`). Absent in AWS.',
    },
    checks: {
      type: 'object',
      description: 'Each dependency and whether it answered.',
      additionalProperties: { type: 'string', enum: ['ok', 'error'] },
    },
  },
  required: ['status', 'checks'],
} as const satisfies JsonSchema;

export const loginRequest = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email', maxLength: 254 },
    password: { type: 'string', minLength: 1, maxLength: 256 },
  },
  required: ['email', 'password'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const loginResponse = {
  type: 'object',
  properties: {
    access_token: { type: 'string', description: 'Send as `Authorization: Bearer <access_token>`.' },
    token_type: { type: 'string', enum: ['bearer'] },
    expires_in: { type: 'integer', description: 'Seconds until the token expires.' },
    expires_at: { type: 'string', format: 'date-time', description: 'When the token expires.' },
    refresh_token: { type: 'string' },
    tenant_id: {
      type: 'string',
      format: 'uuid',
      description: 'Your tenant: what `tenant_id` parameters take for your own data.',
    },
    user_id: { type: 'string', format: 'uuid' },
    role: { type: 'string', enum: ['VIEWER', 'OPERATOR', 'TENANT_ADMIN', 'SUPER_ADMIN'] },
  },
  required: ['access_token', 'token_type', 'expires_in', 'expires_at', 'tenant_id', 'user_id', 'role'],
} as const satisfies JsonSchema;

export const openApiDocument = {
  type: 'object',
  description: 'An OpenAPI 3.1 document.',
  properties: { openapi: { type: 'string' } },
  required: ['openapi'],
} as const satisfies JsonSchema;

export const docsAssetPath = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      asset: { type: 'string', minLength: 1, maxLength: 64, description: 'swagger-ui.css or swagger-ui-bundle.js' },
    },
    required: ['asset'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();
