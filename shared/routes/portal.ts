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
  registerConfirmQuery,
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
/** Uses and views of confirmation links per client IP per minute, as for acknowledgement links. */
const CONFIRM_PER_MINUTE = 30;

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
  summary:
    'Register an organisation: a new tenant on the free plan, with you as its TENANT_ADMIN, once you confirm by email',
  description:
    'Every registration is answered alike, whether the address has an account or not, and one email goes to the address: ' +
    'for a new address a confirmation link (GET shows a page with a button, POST confirms), valid for 24 hours; ' +
    'for an address that has an account, a note that someone tried (nothing is made or changed). ' +
    'Until the link is used the account cannot log in. Registering the same address again answers the same ids and, ' +
    'while it is not confirmed, mails a new link (the older one stops working) with the new password. ' +
    '422 for a password that breaks the policy; 503 where the deployment sends no email.',
  request: { body: registerRequest },
  response: {
    status: 201,
    description: 'Registered, `pending_confirmation`: confirm with the link mailed to the address, then log in.',
    schema: registerResponse,
  },
  errors: [429, 503],
  rateLimit: { name: 'register', perMinute: REGISTER_PER_MINUTE },
  grants: {
    table: 'write',
    userPool: ['cognito-idp:AdminCreateUser', 'cognito-idp:AdminDeleteUser'],
    secrets: 'seal',
    email: true,
  },
} as const satisfies RouteDef;

export const portalRegisterConfirmRoute = {
  id: 'portal.register.confirm',
  method: 'POST',
  path: '/api/v1/portal/register/confirm',
  handler: 'functions/portal/register-confirm.ts',
  access: 'public',
  tenant: 'none',
  tag: 'portal',
  summary: 'Confirm a registration through the link mailed to its address (no credential)',
  description:
    "Makes the tenant and its TENANT_ADMIN with the password given at registration: from now on it logs in. The link works once, until it expires or a newer registration of the address replaces it; otherwise 403 and nothing changes. The form of the link's page (GET) posts here as `application/x-www-form-urlencoded`: that POST answers 303 back to the page, which says what happened.",
  request: { query: registerConfirmQuery },
  response: {
    status: 200,
    description: 'Confirmed: the tenant and the user, `active`.',
    schema: registerResponse,
    redirect: {
      status: 303,
      description: "A form post from the link's page: back to the page (Location), confirmed or not.",
    },
  },
  errors: [403, 429],
  rateLimit: { name: 'register-confirm', perMinute: CONFIRM_PER_MINUTE },
  grants: { audit: 'seal', table: 'write', userPool: ['cognito-idp:AdminSetUserPassword'], secrets: 'open' },
} as const satisfies RouteDef;

export const portalRegisterConfirmPageRoute = {
  id: 'portal.register.confirm.page',
  method: 'GET',
  path: '/api/v1/portal/register/confirm',
  handler: 'functions/portal/register-confirm-page.ts',
  access: 'public',
  tenant: 'none',
  tag: 'portal',
  summary: 'The confirmation link opened in a browser: a button that confirms the registration',
  description:
    'Opening the link changes nothing (mail scanners open links too): while the link can confirm, the page shows a button that posts the confirmation; a used, replaced, expired or wrong link shows a page that says so. Always 200 with HTML.',
  request: { query: registerConfirmQuery },
  response: { status: 200, description: 'An HTML page.', contentType: 'text/html' },
  errors: [429],
  rateLimit: { name: 'register-confirm', perMinute: CONFIRM_PER_MINUTE },
  grants: { table: 'read' },
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
  grants: { audit: 'seal', table: 'write' },
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
  grants: { audit: 'seal', table: 'write' },
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
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const portalRoutes: readonly RouteDef[] = [
  portalLoginRoute,
  portalRegisterRoute,
  portalRegisterConfirmRoute,
  portalRegisterConfirmPageRoute,
  portalPlansRoute,
  portalMeRoute,
  portalSettingsGetRoute,
  portalSettingsUpdateRoute,
  portalApiKeysCreateRoute,
  portalApiKeysListRoute,
  portalApiKeysRevokeRoute,
];
