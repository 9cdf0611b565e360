/** Users of a tenant. */
import { tenantScopeQuery, userCreate, userListQuery, userPath, userResponse, userUpdate } from '../schemas/users.js';
import type { RouteDef } from './types.js';

export const usersCreateRoute = {
  id: 'users.create',
  method: 'POST',
  path: '/api/v1/users',
  handler: 'functions/users/create.ts',
  access: 'TENANT_ADMIN',
  tenant: 'body',
  tag: 'users',
  summary: 'Create a user in a tenant',
  description:
    "With a password the user can log in at once. Nobody can give a role above their own. At the plan's user limit, 402 naming the plan, the limit and how to raise it (docs/plans.md).",
  request: { body: userCreate },
  response: { status: 201, description: 'The new user.', schema: userResponse },
  plan: { limit: 'users' },
  errors: [402, 404, 409],
  grants: {
    audit: 'seal',
    table: 'write',
    userPool: ['cognito-idp:AdminCreateUser', 'cognito-idp:AdminSetUserPassword', 'cognito-idp:AdminDeleteUser'],
  },
} as const satisfies RouteDef;

export const usersListRoute = {
  id: 'users.list',
  method: 'GET',
  path: '/api/v1/users',
  handler: 'functions/users/list.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'users',
  summary: "List a tenant's users, oldest first",
  request: { query: userListQuery },
  response: { status: 200, description: 'A page of users.', schema: { type: 'array', items: userResponse } },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const usersGetRoute = {
  id: 'users.get',
  method: 'GET',
  path: '/api/v1/users/{user_id}',
  handler: 'functions/users/get.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'users',
  summary: 'Get a user',
  request: { path: userPath, query: tenantScopeQuery },
  response: { status: 200, description: 'The user.', schema: userResponse },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const usersUpdateRoute = {
  id: 'users.update',
  method: 'PATCH',
  path: '/api/v1/users/{user_id}',
  handler: 'functions/users/update.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'users',
  summary: "Change a user's name, role or active flag; a role change applies on their next request",
  request: { path: userPath, query: tenantScopeQuery, body: userUpdate },
  response: { status: 200, description: 'The user as they are now.', schema: userResponse },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write', userPool: ['cognito-idp:AdminDisableUser', 'cognito-idp:AdminEnableUser'] },
} as const satisfies RouteDef;

export const usersDeleteRoute = {
  id: 'users.delete',
  method: 'DELETE',
  path: '/api/v1/users/{user_id}',
  handler: 'functions/users/delete.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'users',
  summary: 'Delete a user: their login and their API keys stop working at once',
  request: { path: userPath, query: tenantScopeQuery },
  response: { status: 204, description: 'Deleted.' },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write', userPool: ['cognito-idp:AdminDeleteUser'] },
} as const satisfies RouteDef;

export const usersRoutes: readonly RouteDef[] = [
  usersCreateRoute,
  usersListRoute,
  usersGetRoute,
  usersUpdateRoute,
  usersDeleteRoute,
];
