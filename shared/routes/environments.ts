/** Environments: a tenant's sites. */
import {
  environmentCreate,
  environmentDeleteQuery,
  environmentListQuery,
  environmentPath,
  environmentResponse,
  environmentUpdate,
} from '../schemas/environments.js';
import { tenantScopeQuery } from '../schemas/users.js';
import type { RouteDef } from './types.js';

export const environmentsCreateRoute = {
  id: 'environments.create',
  method: 'POST',
  path: '/api/v1/environments',
  handler: 'functions/environments/create.ts',
  access: 'TENANT_ADMIN',
  tenant: 'body',
  tag: 'environments',
  summary: 'Create an environment (a site)',
  request: { body: environmentCreate },
  response: { status: 201, description: 'The new environment.', schema: environmentResponse },
  errors: [404],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const environmentsListRoute = {
  id: 'environments.list',
  method: 'GET',
  path: '/api/v1/environments',
  handler: 'functions/environments/list.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'environments',
  summary: "List a tenant's environments, optionally of one type or status",
  request: { query: environmentListQuery },
  response: {
    status: 200,
    description: 'A page of environments, oldest first.',
    schema: { type: 'array', items: environmentResponse },
  },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const environmentsGetRoute = {
  id: 'environments.get',
  method: 'GET',
  path: '/api/v1/environments/{environment_id}',
  handler: 'functions/environments/get.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'environments',
  summary: 'Get an environment',
  request: { path: environmentPath, query: tenantScopeQuery },
  response: { status: 200, description: 'The environment.', schema: environmentResponse },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const environmentsUpdateRoute = {
  id: 'environments.update',
  method: 'PATCH',
  path: '/api/v1/environments/{environment_id}',
  handler: 'functions/environments/update.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'environments',
  summary: 'Change some fields of an environment',
  request: { path: environmentPath, query: tenantScopeQuery, body: environmentUpdate },
  response: { status: 200, description: 'The environment as it is now.', schema: environmentResponse },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const environmentsDeleteRoute = {
  id: 'environments.delete',
  method: 'DELETE',
  path: '/api/v1/environments/{environment_id}',
  handler: 'functions/environments/delete.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'environments',
  summary: 'Delete an environment; 409 while it holds anything, unless cascade=true',
  request: { path: environmentPath, query: environmentDeleteQuery },
  response: { status: 204, description: 'Deleted, with everything in it when cascading.' },
  errors: [404, 409],
  timeoutSeconds: 29,
  grants: { audit: 'seal', table: 'write', bucket: 'write' },
} as const satisfies RouteDef;

export const environmentsRoutes: readonly RouteDef[] = [
  environmentsCreateRoute,
  environmentsListRoute,
  environmentsGetRoute,
  environmentsUpdateRoute,
  environmentsDeleteRoute,
];
