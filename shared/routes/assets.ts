/** Assets: what a tenant protects. */
import {
  assetCreate,
  assetListQuery,
  assetPath,
  assetResponse,
  assetScopeQuery,
  assetUpdate,
} from '../schemas/assets.js';
import type { RouteDef } from './types.js';

export const assetsCreateRoute = {
  id: 'assets.create',
  method: 'POST',
  path: '/api/v1/assets',
  handler: 'functions/assets/create.ts',
  access: 'TENANT_ADMIN',
  tenant: 'body',
  tag: 'assets',
  summary: 'Register an asset in an environment',
  request: { body: assetCreate },
  response: { status: 201, description: 'The new asset.', schema: assetResponse },
  errors: [404],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const assetsListRoute = {
  id: 'assets.list',
  method: 'GET',
  path: '/api/v1/assets',
  handler: 'functions/assets/list.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'assets',
  summary: "List a tenant's assets, optionally of one environment, type or criticality",
  request: { query: assetListQuery },
  response: { status: 200, description: 'A page of assets.', schema: { type: 'array', items: assetResponse } },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const assetsGetRoute = {
  id: 'assets.get',
  method: 'GET',
  path: '/api/v1/assets/{asset_id}',
  handler: 'functions/assets/get.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'assets',
  summary: 'Get an asset',
  request: { path: assetPath, query: assetScopeQuery },
  response: { status: 200, description: 'The asset.', schema: assetResponse },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const assetsUpdateRoute = {
  id: 'assets.update',
  method: 'PATCH',
  path: '/api/v1/assets/{asset_id}',
  handler: 'functions/assets/update.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'assets',
  summary: 'Change some fields of an asset',
  request: { path: assetPath, query: assetScopeQuery, body: assetUpdate },
  response: { status: 200, description: 'The asset as it is now.', schema: assetResponse },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const assetsDeleteRoute = {
  id: 'assets.delete',
  method: 'DELETE',
  path: '/api/v1/assets/{asset_id}',
  handler: 'functions/assets/delete.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'assets',
  summary: 'Delete an asset',
  request: { path: assetPath, query: assetScopeQuery },
  response: { status: 204, description: 'Deleted.' },
  errors: [404],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const assetsRoutes: readonly RouteDef[] = [
  assetsCreateRoute,
  assetsListRoute,
  assetsGetRoute,
  assetsUpdateRoute,
  assetsDeleteRoute,
];
