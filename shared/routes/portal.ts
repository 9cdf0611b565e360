/** The account portal: login, registration, plans, API keys. */
import { loginRequest, loginResponse } from '../schemas/platform.js';
import {
  apiKeyCreate,
  apiKeyCreated,
  apiKeyListQuery,
  apiKeyPath,
  apiKeyResponse,
  meResponse,
  planSchema,
  registerRequest,
  registerResponse,
} from '../schemas/portal.js';
import { tenantConfig, tenantConfigUpdate } from '../schemas/tenants.js';
import { tenantScopeQuery } from '../schemas/users.js';
import type { RouteDef } from './types.js';

/** Logins per client IP per minute: enough for an office behind one address, too few to guess passwords. */
const LOGIN_PER_MINUTE = 30;
/** Registrations per client IP per minute. */
const REGISTER_PER_MINUTE = 10;

export const portalLoginRoute = {
  id: 'portal.login',
  method: 'POST',
  path: '/api/v1/portal/login',
  handler: 'functions/portal/login.ts',
  access: 'public',
  tenant: 'none',
  tag: 'portal',
  summary: 'Log in with email and password and obtain a bearer token',
  request: { body: loginRequest },
  response: { status: 200, description: 'Logged in.', schema: loginResponse },
  errors: [401, 429],
  rateLimit: { name: 'login', perMinute: LOGIN_PER_MINUTE },
  grants: { table: 'write', userPool: ['cognito-idp:InitiateAuth'] },
} as const satisfies RouteDef;

export const portalRegisterRoute = {
  id: 'portal.register',
  method: 'POST',
  path: '/api/v1/portal/register',
  handler: 'functions/portal/register.ts',
  access: 'public',
  tenant: 'none',
  tag: 'portal',
  summary: 'Register an organisation: a new tenant on the free plan, with you as its TENANT_ADMIN',
  request: { body: registerRequest },
  response: {
    status: 201,
    description: 'Registered; log in with the same email and password.',
    schema: registerResponse,
  },
  errors: [409, 429],
  rateLimit: { name: 'register', perMinute: REGISTER_PER_MINUTE },
  grants: {
    table: 'write',
    userPool: ['cognito-idp:AdminCreateUser', 'cognito-idp:AdminSetUserPassword', 'cognito-idp:AdminDeleteUser'],
  },
} as const satisfies RouteDef;

export const portalPlansRoute = {
  id: 'portal.plans',
  method: 'GET',
  path: '/api/v1/portal/plans',
  handler: 'functions/portal/plans.ts',
  access: 'public',
  tenant: 'none',
  tag: 'portal',
  summary: 'The plans and their limits',
  response: { status: 200, description: 'Every plan.', schema: { type: 'array', items: planSchema } },
  grants: {},
} as const satisfies RouteDef;

export const portalMeRoute = {
  id: 'portal.me',
  method: 'GET',
  path: '/api/v1/portal/me',
  handler: 'functions/portal/me.ts',
  access: 'VIEWER',
  tenant: 'credential',
  tag: 'portal',
  summary: 'Who am I: the caller (user or API key), its role, its tenant and plan limits',
  description: 'The tenant_id here is what the tenant_id parameters of other operations take for your own data.',
  response: { status: 200, description: 'The caller.', schema: meResponse },
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const portalSettingsGetRoute = {
  id: 'portal.settings.get',
  method: 'GET',
  path: '/api/v1/portal/settings',
  handler: 'functions/portal/get-settings.ts',
  access: 'TENANT_ADMIN',
  tenant: 'credential',
  tag: 'portal',
  summary: "Your own tenant's settings: incident threshold, SLA targets, escalation, notifications",
  description:
    'The same configuration a SUPER_ADMIN reads at `/api/v1/tenants/{tenant_id}/config`, for the tenant of your own credential.',
  response: { status: 200, description: 'The settings.', schema: tenantConfig },
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const portalSettingsUpdateRoute = {
  id: 'portal.settings.update',
  method: 'PATCH',
  path: '/api/v1/portal/settings',
  handler: 'functions/portal/update-settings.ts',
  access: 'TENANT_ADMIN',
  tenant: 'credential',
  tag: 'portal',
  summary: "Change some of your own tenant's settings",
  description:
    'Only the fields given change; nested objects merge key by key, arrays are replaced. The change is audited as `tenant_config.updated` with what changed, and applies to the next event, incident or escalation step. 404 when an escalation level names an integration you do not have (unknown, or of another tenant).',
  request: { body: tenantConfigUpdate },
  response: { status: 200, description: 'The settings as they are now.', schema: tenantConfig },
  errors: [404, 409],
  grants: { table: 'write' },
} as const satisfies RouteDef;

export const portalApiKeysCreateRoute = {
  id: 'portal.apiKeys.create',
  method: 'POST',
  path: '/api/v1/portal/api-keys',
  handler: 'functions/portal/create-api-key.ts',
  access: 'TENANT_ADMIN',
  tenant: 'body',
  bearerOnly: true,
  tag: 'portal',
  summary: 'Mint an API key for your tenant; the key is shown once',
  description:
    "Send the key as `X-API-Key`. It acts for one tenant with the role it was given, never above its creator's. Minting needs a bearer token: a key cannot mint keys.",
  request: { body: apiKeyCreate },
  response: { status: 201, description: 'The key, shown this once.', schema: apiKeyCreated },
  errors: [404],
  grants: { table: 'write' },
} as const satisfies RouteDef;

export const portalApiKeysListRoute = {
  id: 'portal.apiKeys.list',
  method: 'GET',
  path: '/api/v1/portal/api-keys',
  handler: 'functions/portal/list-api-keys.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'portal',
  summary: "List a tenant's API keys (never the keys themselves)",
  request: { query: apiKeyListQuery },
  response: {
    status: 200,
    description: 'A page of keys, newest first.',
    schema: { type: 'array', items: apiKeyResponse },
  },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const portalApiKeysRevokeRoute = {
  id: 'portal.apiKeys.revoke',
  method: 'DELETE',
  path: '/api/v1/portal/api-keys/{key_id}',
  handler: 'functions/portal/revoke-api-key.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'portal',
  summary: 'Revoke an API key; it stops working at once',
  request: { path: apiKeyPath, query: tenantScopeQuery },
  response: { status: 204, description: 'Revoked.' },
  errors: [404],
  grants: { table: 'write' },
} as const satisfies RouteDef;

export const portalRoutes: readonly RouteDef[] = [
  portalLoginRoute,
  portalRegisterRoute,
  portalPlansRoute,
  portalMeRoute,
  portalSettingsGetRoute,
  portalSettingsUpdateRoute,
  portalApiKeysCreateRoute,
  portalApiKeysListRoute,
  portalApiKeysRevokeRoute,
];
