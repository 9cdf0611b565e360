/** Tenants and their configuration (SUPER_ADMIN only). */
import { pagingQuery } from '../schemas/common.js';
import {
  tenantConfig,
  tenantConfigUpdate,
  tenantCreate,
  tenantPath,
  tenantResponse,
  tenantUpdate,
} from '../schemas/tenants.js';
import type { RouteDef } from './types.js';

export const tenantsListRoute = {
  id: 'tenants.list',
  method: 'GET',
  path: '/api/v1/tenants',
  handler: 'functions/tenants/list.ts',
  access: 'SUPER_ADMIN',
  tenant: 'none',
  tag: 'tenants',
  summary: 'List tenants, oldest first',
  request: { query: pagingQuery },
  response: { status: 200, description: 'A page of tenants.', schema: { type: 'array', items: tenantResponse } },
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const tenantsCreateRoute = {
  id: 'tenants.create',
  method: 'POST',
  path: '/api/v1/tenants',
  handler: 'functions/tenants/create.ts',
  access: 'SUPER_ADMIN',
  tenant: 'none',
  tag: 'tenants',
  summary: 'Create a tenant with the default configuration',
  request: { body: tenantCreate },
  response: { status: 201, description: 'The new tenant.', schema: tenantResponse },
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const tenantsGetRoute = {
  id: 'tenants.get',
  method: 'GET',
  path: '/api/v1/tenants/{tenant_id}',
  handler: 'functions/tenants/get.ts',
  access: 'SUPER_ADMIN',
  tenant: 'found',
  tag: 'tenants',
  summary: 'Get a tenant',
  request: { path: tenantPath },
  response: { status: 200, description: 'The tenant.', schema: tenantResponse },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const tenantsUpdateRoute = {
  id: 'tenants.update',
  method: 'PATCH',
  path: '/api/v1/tenants/{tenant_id}',
  handler: 'functions/tenants/update.ts',
  access: 'SUPER_ADMIN',
  tenant: 'found',
  tag: 'tenants',
  summary: 'Change some fields of a tenant',
  request: { path: tenantPath, body: tenantUpdate },
  response: { status: 200, description: 'The tenant as it is now.', schema: tenantResponse },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const tenantsConfigGetRoute = {
  id: 'tenants.config.get',
  method: 'GET',
  path: '/api/v1/tenants/{tenant_id}/config',
  handler: 'functions/tenants/get-config.ts',
  access: 'SUPER_ADMIN',
  tenant: 'found',
  tag: 'tenants',
  summary: "Get a tenant's configuration",
  request: { path: tenantPath },
  response: { status: 200, description: 'The configuration.', schema: tenantConfig },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const tenantsConfigUpdateRoute = {
  id: 'tenants.config.update',
  method: 'PATCH',
  path: '/api/v1/tenants/{tenant_id}/config',
  handler: 'functions/tenants/update-config.ts',
  access: 'SUPER_ADMIN',
  tenant: 'found',
  tag: 'tenants',
  summary: "Change some fields of a tenant's configuration",
  description: '404 for an unknown tenant, and when an escalation level names an integration the tenant does not have.',
  request: { path: tenantPath, body: tenantConfigUpdate },
  response: { status: 200, description: 'The configuration as it is now.', schema: tenantConfig },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const tenantsRoutes: readonly RouteDef[] = [
  tenantsListRoute,
  tenantsCreateRoute,
  tenantsGetRoute,
  tenantsUpdateRoute,
  tenantsConfigGetRoute,
  tenantsConfigUpdateRoute,
];
