/** Sensors of an environment, with health. */
import {
  sensorCreate,
  sensorListQuery,
  sensorPath,
  sensorResponse,
  sensorScopeQuery,
  sensorUpdate,
} from '../schemas/sensors.js';
import type { RouteDef } from './types.js';

export const sensorsCreateRoute = {
  id: 'sensors.create',
  method: 'POST',
  path: '/api/v1/sensors',
  handler: 'functions/sensors/create.ts',
  access: 'TENANT_ADMIN',
  tenant: 'body',
  tag: 'sensors',
  summary: 'Register a sensor in an environment',
  request: { body: sensorCreate },
  response: { status: 201, description: 'The new sensor (offline until it first reports).', schema: sensorResponse },
  plan: { limit: 'sensors' },
  errors: [402, 404, 409],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const sensorsListRoute = {
  id: 'sensors.list',
  method: 'GET',
  path: '/api/v1/sensors',
  handler: 'functions/sensors/list.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'sensors',
  summary: 'List the sensors of an environment with their health',
  request: { query: sensorListQuery },
  response: {
    status: 200,
    description: 'A page of sensors, oldest first.',
    schema: { type: 'array', items: sensorResponse },
  },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const sensorsGetRoute = {
  id: 'sensors.get',
  method: 'GET',
  path: '/api/v1/sensors/{sensor_id}',
  handler: 'functions/sensors/get.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'sensors',
  summary: 'Get a sensor with its health',
  request: { path: sensorPath, query: sensorScopeQuery },
  response: { status: 200, description: 'The sensor.', schema: sensorResponse },
  errors: [404],
  grants: { table: 'read' },
} as const satisfies RouteDef;

export const sensorsUpdateRoute = {
  id: 'sensors.update',
  method: 'PATCH',
  path: '/api/v1/sensors/{sensor_id}',
  handler: 'functions/sensors/update.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'sensors',
  summary: 'Change some fields of a sensor',
  request: { path: sensorPath, query: sensorScopeQuery, body: sensorUpdate },
  response: { status: 200, description: 'The sensor as it is now.', schema: sensorResponse },
  errors: [404, 409],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const sensorsDeleteRoute = {
  id: 'sensors.delete',
  method: 'DELETE',
  path: '/api/v1/sensors/{sensor_id}',
  handler: 'functions/sensors/delete.ts',
  access: 'TENANT_ADMIN',
  tenant: 'query',
  tag: 'sensors',
  summary: 'Delete a sensor',
  request: { path: sensorPath, query: sensorScopeQuery },
  response: { status: 204, description: 'Deleted.' },
  errors: [404],
  grants: { audit: 'seal', table: 'write' },
} as const satisfies RouteDef;

export const sensorsHeartbeatRoute = {
  id: 'sensors.heartbeat',
  method: 'POST',
  path: '/api/v1/sensors/{sensor_id}/heartbeat',
  handler: 'functions/sensors/heartbeat.ts',
  access: 'OPERATOR',
  tenant: 'query',
  tag: 'sensors',
  summary: 'Record that a sensor is alive now',
  description:
    'What a sensor gateway calls on each heartbeat (a `sensor.heartbeat` event does the same). Telemetry, not a configuration change: not audited.',
  request: { path: sensorPath, query: sensorScopeQuery },
  response: { status: 200, description: 'The sensor, online.', schema: sensorResponse },
  errors: [404],
  grants: { table: 'write' },
} as const satisfies RouteDef;

export const sensorsRoutes: readonly RouteDef[] = [
  sensorsCreateRoute,
  sensorsListRoute,
  sensorsGetRoute,
  sensorsUpdateRoute,
  sensorsDeleteRoute,
  sensorsHeartbeatRoute,
];
