/** Zones of an environment, with geofences. */
import { zoneCreate, zoneListQuery, zonePath, zoneResponse, zoneScopeQuery, zoneUpdate } from '../schemas/zones.js';
import type { RouteDef } from './types.js';

export const zonesCreateRoute = {
  id: 'zones.create',
  method: 'POST',
  path: '/api/v1/zones',
  handler: 'functions/zones/create.ts',
  access: 'TENANT_ADMIN',
  tenant: 'body',
  tag: 'zones',
  summary: 'Create a zone with its geofence in an environment',
  request: { body: zoneCreate },
  response: { status: 201, description: 'The new zone.', schema: zoneResponse },
  errors: [404],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const zonesListRoute = {
  id: 'zones.list',
  method: 'GET',
  path: '/api/v1/zones',
  handler: 'functions/zones/list.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'zones',
  summary: 'List the zones of an environment',
  request: { query: zoneListQuery },
  response: {
    status: 200,
    description: 'A page of zones, oldest first.',
    schema: { type: 'array', items: zoneResponse },
  },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const zonesGetRoute = {
  id: 'zones.get',
  method: 'GET',
  path: '/api/v1/zones/{zone_id}',
  handler: 'functions/zones/get.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'zones',
  summary: 'Get a zone',
  request: { path: zonePath, query: zoneScopeQuery },
  response: { status: 200, description: 'The zone.', schema: zoneResponse },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const zonesUpdateRoute = {
  id: 'zones.update',
  method: 'PATCH',
  path: '/api/v1/zones/{zone_id}',
  handler: 'functions/zones/update.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'zones',
  summary: 'Change some fields of a zone, its geofence included',
  request: { path: zonePath, query: zoneScopeQuery, body: zoneUpdate },
  response: { status: 200, description: 'The zone as it is now.', schema: zoneResponse },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const zonesDeleteRoute = {
  id: 'zones.delete',
  method: 'DELETE',
  path: '/api/v1/zones/{zone_id}',
  handler: 'functions/zones/delete.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'zones',
  summary: 'Delete a zone; sensors that watched it keep working, with no zone',
  request: { path: zonePath, query: zoneScopeQuery },
  response: { status: 204, description: 'Deleted.' },
  errors: [404],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const zonesRoutes: readonly RouteDef[] = [
  zonesCreateRoute,
  zonesListRoute,
  zonesGetRoute,
  zonesUpdateRoute,
  zonesDeleteRoute,
];
