/**
 * THE route table: every HTTP route of the service, as data. The CDK stack creates one Lambda per
 * entry, the local server mounts every entry, the OpenAPI document is generated from it, and the
 * tests check each entry has a handler, a CDK route, an OpenAPI operation and a test.
 */
import { pagingQuery } from '../schemas/common.js';
import {
  docsAssetPath,
  health,
  loginRequest,
  loginResponse,
  openApiDocument,
} from '../schemas/platform.js';
import {
  tenantConfig,
  tenantConfigUpdate,
  tenantCreate,
  tenantPath,
  tenantResponse,
  tenantUpdate,
} from '../schemas/tenants.js';
import {
  apiKeyCreate,
  apiKeyCreated,
  apiKeyListQuery,
  apiKeyPath,
  apiKeyResponse,
  planSchema,
  registerRequest,
  registerResponse,
} from '../schemas/portal.js';
import { tenantScopeQuery, userCreate, userListQuery, userPath, userResponse, userUpdate } from '../schemas/users.js';
import type { RouteDef } from './types.js';

/** Logins per client IP per minute: enough for an office behind one address, too few to guess passwords. */
const LOGIN_PER_MINUTE = 30;
/** Registrations per client IP per minute. */
const REGISTER_PER_MINUTE = 10;

export type { Access, HttpMethod, Role, RouteDef, RouteGrants } from './types.js';
export { ROLES } from './types.js';

const platform: RouteDef[] = [
  {
    id: 'health',
    method: 'GET',
    path: '/health',
    handler: 'functions/platform/health.ts',
    access: 'public',
    tag: 'platform',
    summary: 'Health check',
    description: '200 once every dependency answers, 503 otherwise.',
    response: { status: 200, description: 'Every dependency answered.', schema: health },
    errors: [503],
    grants: { table: 'read', bucket: 'read', userPool: ['cognito-idp:DescribeUserPool'] },
  },
  {
    id: 'openapi',
    method: 'GET',
    path: '/openapi.json',
    handler: 'functions/platform/openapi.ts',
    access: 'public',
    tag: 'platform',
    summary: 'This API as an OpenAPI 3.1 document',
    response: { status: 200, description: 'The OpenAPI document.', schema: openApiDocument },
    grants: {},
  },
  {
    id: 'docs',
    method: 'GET',
    path: '/docs',
    handler: 'functions/platform/docs.ts',
    access: 'public',
    tag: 'platform',
    summary: 'Interactive documentation',
    response: { status: 200, description: 'An HTML page that renders /openapi.json.', contentType: 'text/html' },
    grants: {},
  },
  {
    id: 'docs.asset',
    method: 'GET',
    path: '/docs/{asset}',
    handler: 'functions/platform/docs-asset.ts',
    access: 'public',
    tag: 'platform',
    summary: 'Script and style of the interactive documentation',
    request: { path: docsAssetPath },
    response: { status: 200, description: 'The asset.', contentType: 'application/octet-stream' },
    errors: [404],
    grants: {},
  },
];

const portal: RouteDef[] = [
  {
    id: 'portal.login',
    method: 'POST',
    path: '/api/v1/portal/login',
    handler: 'functions/portal/login.ts',
    access: 'public',
    tag: 'portal',
    summary: 'Log in with email and password and obtain a bearer token',
    request: { body: loginRequest },
    response: { status: 200, description: 'Logged in.', schema: loginResponse },
    errors: [401, 429],
    rateLimit: { name: 'login', perMinute: LOGIN_PER_MINUTE },
    grants: { table: 'write', userPool: ['cognito-idp:InitiateAuth'] },
  },
  {
    id: 'portal.register',
    method: 'POST',
    path: '/api/v1/portal/register',
    handler: 'functions/portal/register.ts',
    access: 'public',
    tag: 'portal',
    summary: 'Register an organisation: a new tenant on the free plan, with you as its TENANT_ADMIN',
    request: { body: registerRequest },
    response: { status: 201, description: 'Registered; log in with the same email and password.', schema: registerResponse },
    errors: [409, 429],
    rateLimit: { name: 'register', perMinute: REGISTER_PER_MINUTE },
    grants: { table: 'write', userPool: ['cognito-idp:AdminCreateUser', 'cognito-idp:AdminSetUserPassword', 'cognito-idp:AdminDeleteUser'] },
  },
  {
    id: 'portal.plans',
    method: 'GET',
    path: '/api/v1/portal/plans',
    handler: 'functions/portal/plans.ts',
    access: 'public',
    tag: 'portal',
    summary: 'The plans and their limits',
    response: { status: 200, description: 'Every plan.', schema: { type: 'array', items: planSchema } },
    grants: {},
  },
  {
    id: 'portal.apiKeys.create',
    method: 'POST',
    path: '/api/v1/portal/api-keys',
    handler: 'functions/portal/create-api-key.ts',
    access: 'TENANT_ADMIN',
    bearerOnly: true,
    tag: 'portal',
    summary: 'Mint an API key for your tenant; the key is shown once',
    description: 'Send the key as `X-API-Key`. It acts for one tenant with the role it was given, never above its creator\'s. Minting needs a bearer token: a key cannot mint keys.',
    request: { body: apiKeyCreate },
    response: { status: 201, description: 'The key, shown this once.', schema: apiKeyCreated },
    errors: [404],
    grants: { table: 'write' },
  },
  {
    id: 'portal.apiKeys.list',
    method: 'GET',
    path: '/api/v1/portal/api-keys',
    handler: 'functions/portal/list-api-keys.ts',
    access: 'TENANT_ADMIN',
    tag: 'portal',
    summary: "List a tenant's API keys (never the keys themselves)",
    request: { query: apiKeyListQuery },
    response: { status: 200, description: 'A page of keys, newest first.', schema: { type: 'array', items: apiKeyResponse } },
    errors: [404],
    grants: { table: 'read' },
  },
  {
    id: 'portal.apiKeys.revoke',
    method: 'DELETE',
    path: '/api/v1/portal/api-keys/{key_id}',
    handler: 'functions/portal/revoke-api-key.ts',
    access: 'TENANT_ADMIN',
    tag: 'portal',
    summary: 'Revoke an API key; it stops working at once',
    request: { path: apiKeyPath, query: tenantScopeQuery },
    response: { status: 204, description: 'Revoked.' },
    errors: [404],
    grants: { table: 'write' },
  },
];

const users: RouteDef[] = [
  {
    id: 'users.create',
    method: 'POST',
    path: '/api/v1/users',
    handler: 'functions/users/create.ts',
    access: 'TENANT_ADMIN',
    tag: 'users',
    summary: 'Create a user in a tenant',
    description: 'With a password the user can log in at once. Nobody can give a role above their own.',
    request: { body: userCreate },
    response: { status: 201, description: 'The new user.', schema: userResponse },
    errors: [404, 409],
    grants: { table: 'write', userPool: ['cognito-idp:AdminCreateUser', 'cognito-idp:AdminSetUserPassword', 'cognito-idp:AdminDeleteUser'] },
  },
  {
    id: 'users.list',
    method: 'GET',
    path: '/api/v1/users',
    handler: 'functions/users/list.ts',
    access: 'VIEWER',
    tag: 'users',
    summary: "List a tenant's users, oldest first",
    request: { query: userListQuery },
    response: { status: 200, description: 'A page of users.', schema: { type: 'array', items: userResponse } },
    errors: [404],
    grants: { table: 'read' },
  },
  {
    id: 'users.get',
    method: 'GET',
    path: '/api/v1/users/{user_id}',
    handler: 'functions/users/get.ts',
    access: 'VIEWER',
    tag: 'users',
    summary: 'Get a user',
    request: { path: userPath, query: tenantScopeQuery },
    response: { status: 200, description: 'The user.', schema: userResponse },
    errors: [404],
    grants: { table: 'read' },
  },
  {
    id: 'users.update',
    method: 'PATCH',
    path: '/api/v1/users/{user_id}',
    handler: 'functions/users/update.ts',
    access: 'TENANT_ADMIN',
    tag: 'users',
    summary: "Change a user's name, role or active flag; a role change applies on their next request",
    request: { path: userPath, query: tenantScopeQuery, body: userUpdate },
    response: { status: 200, description: 'The user as they are now.', schema: userResponse },
    errors: [404, 409],
    grants: { table: 'write', userPool: ['cognito-idp:AdminDisableUser', 'cognito-idp:AdminEnableUser'] },
  },
  {
    id: 'users.delete',
    method: 'DELETE',
    path: '/api/v1/users/{user_id}',
    handler: 'functions/users/delete.ts',
    access: 'TENANT_ADMIN',
    tag: 'users',
    summary: 'Delete a user: their login and their API keys stop working at once',
    request: { path: userPath, query: tenantScopeQuery },
    response: { status: 204, description: 'Deleted.' },
    errors: [404, 409],
    grants: { table: 'write', userPool: ['cognito-idp:AdminDeleteUser'] },
  },
];

const tenants: RouteDef[] = [
  {
    id: 'tenants.list',
    method: 'GET',
    path: '/api/v1/tenants',
    handler: 'functions/tenants/list.ts',
    access: 'SUPER_ADMIN',
    tag: 'tenants',
    summary: 'List tenants, oldest first',
    request: { query: pagingQuery },
    response: { status: 200, description: 'A page of tenants.', schema: { type: 'array', items: tenantResponse } },
    grants: { table: 'read' },
  },
  {
    id: 'tenants.create',
    method: 'POST',
    path: '/api/v1/tenants',
    handler: 'functions/tenants/create.ts',
    access: 'SUPER_ADMIN',
    tag: 'tenants',
    summary: 'Create a tenant with the default configuration',
    request: { body: tenantCreate },
    response: { status: 201, description: 'The new tenant.', schema: tenantResponse },
    grants: { table: 'write' },
  },
  {
    id: 'tenants.get',
    method: 'GET',
    path: '/api/v1/tenants/{tenant_id}',
    handler: 'functions/tenants/get.ts',
    access: 'SUPER_ADMIN',
    tag: 'tenants',
    summary: 'Get a tenant',
    request: { path: tenantPath },
    response: { status: 200, description: 'The tenant.', schema: tenantResponse },
    errors: [404],
    grants: { table: 'read' },
  },
  {
    id: 'tenants.update',
    method: 'PATCH',
    path: '/api/v1/tenants/{tenant_id}',
    handler: 'functions/tenants/update.ts',
    access: 'SUPER_ADMIN',
    tag: 'tenants',
    summary: 'Change some fields of a tenant',
    request: { path: tenantPath, body: tenantUpdate },
    response: { status: 200, description: 'The tenant as it is now.', schema: tenantResponse },
    errors: [404, 409],
    grants: { table: 'write' },
  },
  {
    id: 'tenants.config.get',
    method: 'GET',
    path: '/api/v1/tenants/{tenant_id}/config',
    handler: 'functions/tenants/get-config.ts',
    access: 'SUPER_ADMIN',
    tag: 'tenants',
    summary: "Get a tenant's configuration",
    request: { path: tenantPath },
    response: { status: 200, description: 'The configuration.', schema: tenantConfig },
    errors: [404],
    grants: { table: 'read' },
  },
  {
    id: 'tenants.config.update',
    method: 'PATCH',
    path: '/api/v1/tenants/{tenant_id}/config',
    handler: 'functions/tenants/update-config.ts',
    access: 'SUPER_ADMIN',
    tag: 'tenants',
    summary: "Change some fields of a tenant's configuration",
    request: { path: tenantPath, body: tenantConfigUpdate },
    response: { status: 200, description: 'The configuration as it is now.', schema: tenantConfig },
    errors: [404, 409],
    grants: { table: 'write' },
  },
];

export const ROUTES: readonly RouteDef[] = [...platform, ...portal, ...users, ...tenants];

const byId = new Map(ROUTES.map((r) => [r.id, r]));

/** The route with this id; throws for an unknown id, a programming error. */
export function routeById(id: string): RouteDef {
  const route = byId.get(id);
  if (!route) throw new Error(`unknown route id: ${id}`);
  return route;
}
