/** Environments, zones and sensors made through the API, for the sites tests (test/e2e/sites*.test.ts). */
import { expect } from 'vitest';
import { callRetrying503, type RegisteredTenant } from './api.js';

export const square = (lon: number, lat: number, d: number) => [
  [lon, lat],
  [lon + d, lat],
  [lon + d, lat + d],
  [lon, lat + d],
  [lon, lat],
];

/** A polygon with a hole, as a harbour with a basin it does not cover. */
export const harbourWithBasin = {
  type: 'Polygon',
  coordinates: [square(10.7, 59.9, 0.01), square(10.703, 59.903, 0.002)],
};

// Setup steps, not the behaviour under test: a 503 (a dependency slow on a loaded machine) is tried
// again after its Retry-After, as a client following the contract would; any other answer but 201
// fails the test here, not later as a puzzling empty list.

/** A created item's body, as the tests read it: field by field, each checked with expect. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the e2e tests read created bodies loosely, as ApiResponse does
type Created = Record<string, any>;

export async function newEnvironment(org: RegisteredTenant, body: Record<string, unknown> = {}) {
  const res = await callRetrying503<Created>('POST', '/api/v1/environments', {
    token: org.token,
    body: { name: 'North Harbour', type: 'port', ...body },
  });
  expect(res.status).toBe(201);
  return res.body;
}

export async function newZone(org: RegisteredTenant, environmentId: string, body: Record<string, unknown> = {}) {
  const res = await callRetrying503<Created>('POST', '/api/v1/zones', {
    token: org.token,
    body: { environment_id: environmentId, name: 'Quay', geofence: harbourWithBasin, ...body },
  });
  expect(res.status).toBe(201);
  return res.body;
}

export async function newSensor(org: RegisteredTenant, environmentId: string, body: Record<string, unknown> = {}) {
  const res = await callRetrying503<Created>('POST', '/api/v1/sensors', {
    token: org.token,
    body: {
      environment_id: environmentId,
      name: 'Gate camera',
      type: 'camera',
      location: { lat: 59.905, lon: 10.705 },
      ...body,
    },
  });
  expect(res.status).toBe(201);
  return res.body;
}
