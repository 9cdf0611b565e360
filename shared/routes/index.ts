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
import type { RouteDef } from './types.js';

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
    errors: [401],
    grants: { table: 'read', userPool: ['cognito-idp:InitiateAuth'] },
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

export const ROUTES: readonly RouteDef[] = [...platform, ...portal, ...tenants];

const byId = new Map(ROUTES.map((r) => [r.id, r]));

/** The route with this id; throws for an unknown id, a programming error. */
export function routeById(id: string): RouteDef {
  const route = byId.get(id);
  if (!route) throw new Error(`unknown route id: ${id}`);
  return route;
}
