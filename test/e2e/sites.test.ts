/** Environments, zones, sensors and assets end to end, over real HTTP against the local stack. */
import { PutObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { BUCKET, environmentPrefix, s3 } from '../../shared/adapters/s3.js';
import { touchSensor } from '../../shared/domain/sites/sensors.js';
import { asAdmin, call, createUser, registerTenant, type RegisteredTenant } from '../support/api.js';
import { auditEntriesOf } from '../support/seed.js';

const square = (lon: number, lat: number, d: number) => [
  [lon, lat],
  [lon + d, lat],
  [lon + d, lat + d],
  [lon, lat + d],
  [lon, lat],
];

/** A polygon with a hole, as a harbour with a basin it does not cover. */
const harbourWithBasin = {
  type: 'Polygon',
  coordinates: [square(10.7, 59.9, 0.01), square(10.703, 59.903, 0.002)],
};

async function newEnvironment(org: RegisteredTenant, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/v1/environments', { token: org.token, body: { name: 'North Harbour', type: 'port', ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

async function newZone(org: RegisteredTenant, environmentId: string, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/v1/zones', {
    token: org.token,
    body: { environment_id: environmentId, name: 'Quay', geofence: harbourWithBasin, ...body },
  });
  expect(res.status).toBe(201);
  return res.body;
}

async function newSensor(org: RegisteredTenant, environmentId: string, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/v1/sensors', {
    token: org.token,
    body: { environment_id: environmentId, name: 'Gate camera', type: 'camera', location: { lat: 59.905, lon: 10.705 }, ...body },
  });
  expect(res.status).toBe(201);
  return res.body;
}

describe('environments.create', () => {
  it('creates an environment in the caller tenant and audits it', async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org, { location: { lat: 59.9, lon: 10.7 }, description: 'Container terminal' });
    expect(env).toMatchObject({ tenant_id: org.tenantId, name: 'North Harbour', type: 'port', status: 'active', location: { lat: 59.9, lon: 10.7 } });
    const audit = await auditEntriesOf(org.tenantId);
    expect(audit.at(-1)).toMatchObject({ action: 'environment.created', resource_id: env.environment_id });
  });

  it('refuses an unknown type, and a viewer', async () => {
    const org = await registerTenant('Port');
    const bad = await call('POST', '/api/v1/environments', { token: org.token, body: { name: 'X', type: 'moonbase' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'type']);
    const viewer = await createUser(org.token, 'VIEWER');
    expect((await call('POST', '/api/v1/environments', { token: viewer.token, body: { name: 'X', type: 'port' } })).status).toBe(403);
  });
});

describe('environments.list', () => {
  it('needs tenant_id, and filters by type and status through the indexes', async () => {
    const org = await registerTenant('Port');
    const port = await newEnvironment(org, { name: 'Port', type: 'port' });
    const campus = await newEnvironment(org, { name: 'Campus', type: 'campus', status: 'maintenance' });
    const ship = await newEnvironment(org, { name: 'Ship', type: 'vessel' });
    expect((await call('GET', '/api/v1/environments', { token: org.token })).status).toBe(422);
    const list = async (query: Record<string, string>) =>
      (await call('GET', '/api/v1/environments', { token: org.token, query: { tenant_id: org.tenantId, ...query } })).body.map(
        (e: { environment_id: string }) => e.environment_id,
      );
    expect(await list({})).toEqual([port.environment_id, campus.environment_id, ship.environment_id]);
    expect(await list({ type: 'campus' })).toEqual([campus.environment_id]);
    expect(await list({ status: 'active' })).toEqual([port.environment_id, ship.environment_id]);
    expect(await list({ type: 'campus', status: 'active' })).toEqual([]);
    expect(await list({ limit: '1', offset: '1' })).toEqual([campus.environment_id]);
  });

  it("another tenant's id is 404", async () => {
    const a = await registerTenant('Port');
    const b = await registerTenant('Yard');
    await newEnvironment(a);
    const res = await call('GET', '/api/v1/environments', { token: b.token, query: { tenant_id: a.tenantId } });
    expect(res.status).toBe(404);
  });
});

describe('environments.get', () => {
  it("reads one back; another tenant's is 404 like an unknown one", async () => {
    const a = await registerTenant('Port');
    const b = await registerTenant('Yard');
    const env = await newEnvironment(a);
    expect((await call('GET', `/api/v1/environments/${env.environment_id}`, { token: a.token })).body).toEqual(env);
    const cross = await call('GET', `/api/v1/environments/${env.environment_id}`, { token: b.token });
    expect(cross.status).toBe(404);
    expect(cross.body).toEqual({ detail: 'Environment not found' });
  });
});

describe('environments.update', () => {
  it('changes the status, and the status index follows', async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const res = await call('PATCH', `/api/v1/environments/${env.environment_id}`, { token: org.token, body: { status: 'maintenance' } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('maintenance');
    const inMaintenance = await call('GET', '/api/v1/environments', { token: org.token, query: { tenant_id: org.tenantId, status: 'maintenance' } });
    expect(inMaintenance.body.map((e: { environment_id: string }) => e.environment_id)).toEqual([env.environment_id]);
    const active = await call('GET', '/api/v1/environments', { token: org.token, query: { tenant_id: org.tenantId, status: 'active' } });
    expect(active.body).toEqual([]);
  });
});

describe('environments.delete', () => {
  it('an empty environment is deleted', async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    expect((await call('DELETE', `/api/v1/environments/${env.environment_id}`, { token: org.token })).status).toBe(204);
    expect((await call('GET', `/api/v1/environments/${env.environment_id}`, { token: org.token })).status).toBe(404);
  });

  it('one that holds things is 409 naming them, and keeps them', async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    await newZone(org, env.environment_id);
    await newSensor(org, env.environment_id);
    const res = await call('DELETE', `/api/v1/environments/${env.environment_id}`, { token: org.token });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/1 zones, 1 sensors/);
    expect((await call('GET', `/api/v1/environments/${env.environment_id}`, { token: org.token })).status).toBe(200);
  });

  it('cascade removes everything in it, its stored objects too, each with an audit entry', async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const zone = await newZone(org, env.environment_id);
    const sensor = await newSensor(org, env.environment_id, { zone_id: zone.zone_id });
    const asset = (await call('POST', '/api/v1/assets', {
      token: org.token,
      body: { environment_id: env.environment_id, name: 'Crane 4', type: 'equipment', location: { lat: 59.905, lon: 10.705 } },
    })).body;
    const prefix = environmentPrefix(org.tenantId, env.environment_id);
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: `${prefix}files/x/original.kml`, Body: '<kml/>' }));

    const res = await call('DELETE', `/api/v1/environments/${env.environment_id}`, { token: org.token, query: { cascade: 'true' } });
    expect(res.status).toBe(204);
    expect((await call('GET', `/api/v1/zones/${zone.zone_id}`, { token: org.token, query: { tenant_id: org.tenantId } })).status).toBe(404);
    expect((await call('GET', `/api/v1/sensors/${sensor.sensor_id}`, { token: org.token })).status).toBe(404);
    expect((await call('GET', `/api/v1/assets/${asset.asset_id}`, { token: org.token })).status).toBe(404);
    const objects = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
    expect(objects.KeyCount ?? 0).toBe(0);
    const actions = (await auditEntriesOf(org.tenantId)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['zone.deleted', 'sensor.deleted', 'asset.deleted', 'environment.deleted']));
  });

  it("another tenant's environment is 404 and stays", async () => {
    const a = await registerTenant('Port');
    const b = await registerTenant('Yard');
    const env = await newEnvironment(a);
    expect((await call('DELETE', `/api/v1/environments/${env.environment_id}`, { token: b.token, query: { cascade: 'true' } })).status).toBe(404);
    expect((await call('GET', `/api/v1/environments/${env.environment_id}`, { token: a.token })).status).toBe(200);
  });
});

describe('zones.create', () => {
  it('stores a polygon with a hole and reads it back exactly, with its area', async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const zone = await newZone(org, env.environment_id, { type: 'restricted', security_level: 5 });
    expect(zone.geofence).toEqual(harbourWithBasin);
    const read = await call('GET', `/api/v1/zones/${zone.zone_id}`, { token: org.token, query: { tenant_id: org.tenantId } });
    expect(read.body.geofence).toEqual(harbourWithBasin);
    expect(read.body).toMatchObject({ type: 'restricted', security_level: 5, active: true });
    // About 557 m x 1112 m less the basin (4 %): roughly 595,000 m².
    expect(read.body.area_m2).toBeGreaterThan(550_000);
    expect(read.body.area_m2).toBeLessThan(640_000);
    expect(read.body.bbox).toEqual([10.7, 59.9, 10.7 + 0.01, 59.9 + 0.01]);
  });

  it('accepts a circle and a MultiPolygon', async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const circle = await newZone(org, env.environment_id, { geofence: { type: 'Circle', center: [10.7, 59.9], radius_m: 100 } });
    expect(circle.area_m2).toBeCloseTo(Math.PI * 100 * 100, 0);
    const multi = await newZone(org, env.environment_id, {
      geofence: { type: 'MultiPolygon', coordinates: [[square(10, 59, 0.01)], [square(10.1, 59, 0.01)]] },
    });
    expect(multi.geofence.type).toBe('MultiPolygon');
  });

  it.each([
    ['a self-intersecting ring', { type: 'Polygon', coordinates: [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]] }, 'self_intersection'],
    ['an open ring', { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 1]]] }, 'open_ring'],
    ['a hole outside its polygon', { type: 'Polygon', coordinates: [square(0, 0, 1), square(5, 5, 1)] }, 'hole_outside'],
    ['a latitude out of range', { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 95], [0, 0]]] }, 'maximum'],
    ['a circle without radius', { type: 'Circle', center: [0, 0] }, 'missing'],
    ['a line', { type: 'LineString', coordinates: [[0, 0], [1, 1]] }, 'enum'],
  ])('%s is 422 under body.geofence', async (_what, geofence, type) => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const res = await call('POST', '/api/v1/zones', { token: org.token, body: { environment_id: env.environment_id, name: 'Bad', geofence } });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc.slice(0, 2)).toEqual(['body', 'geofence']);
    expect(res.body.detail.map((d: { type: string }) => d.type)).toContain(type);
    const zones = await call('GET', '/api/v1/zones', { token: org.token, query: { tenant_id: org.tenantId, environment_id: env.environment_id } });
    expect(zones.body).toEqual([]);
  });

  it("another tenant's environment is 404", async () => {
    const a = await registerTenant('Port');
    const b = await registerTenant('Yard');
    const env = await newEnvironment(a);
    const res = await call('POST', '/api/v1/zones', { token: b.token, body: { environment_id: env.environment_id, name: 'X', geofence: harbourWithBasin } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Environment not found' });
  });
});

describe('zones.list', () => {
  it('lists the zones of one environment and needs both ids', async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const other = await newEnvironment(org, { name: 'Other' });
    const zone = await newZone(org, env.environment_id);
    await newZone(org, other.environment_id);
    const res = await call('GET', '/api/v1/zones', { token: org.token, query: { tenant_id: org.tenantId, environment_id: env.environment_id } });
    expect(res.body.map((z: { zone_id: string }) => z.zone_id)).toEqual([zone.zone_id]);
    const missing = await call('GET', '/api/v1/zones', { token: org.token, query: { environment_id: env.environment_id } });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0].loc).toEqual(['query', 'tenant_id']);
  });
});

describe('zones.get', () => {
  it('needs tenant_id; another tenant is 404', async () => {
    const a = await registerTenant('Port');
    const b = await registerTenant('Yard');
    const zone = await newZone(a, (await newEnvironment(a)).environment_id);
    expect((await call('GET', `/api/v1/zones/${zone.zone_id}`, { token: a.token })).status).toBe(422);
    expect((await call('GET', `/api/v1/zones/${zone.zone_id}`, { token: b.token, query: { tenant_id: b.tenantId } })).status).toBe(404);
    expect((await call('GET', `/api/v1/zones/${zone.zone_id}`, { token: b.token, query: { tenant_id: a.tenantId } })).status).toBe(404);
  });
});

describe('zones.update', () => {
  it('a new geofence is checked and measured again', async () => {
    const org = await registerTenant('Port');
    const zone = await newZone(org, (await newEnvironment(org)).environment_id);
    const q = { tenant_id: org.tenantId };
    const ok = await call('PATCH', `/api/v1/zones/${zone.zone_id}`, { token: org.token, query: q, body: { geofence: { type: 'Circle', center: [10.7, 59.9], radius_m: 10 } } });
    expect(ok.status).toBe(200);
    expect(ok.body.area_m2).toBeCloseTo(Math.PI * 100, 0);
    const bad = await call('PATCH', `/api/v1/zones/${zone.zone_id}`, {
      token: org.token,
      query: q,
      body: { geofence: { type: 'Polygon', coordinates: [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]] } },
    });
    expect(bad.status).toBe(422);
    const read = await call('GET', `/api/v1/zones/${zone.zone_id}`, { token: org.token, query: q });
    expect(read.body.geofence.type).toBe('Circle');
  });
});

describe('zones.delete', () => {
  it('deletes the zone; a sensor that watched it keeps working with no zone', async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const zone = await newZone(org, env.environment_id);
    const sensor = await newSensor(org, env.environment_id, { zone_id: zone.zone_id });
    expect((await call('DELETE', `/api/v1/zones/${zone.zone_id}`, { token: org.token, query: { tenant_id: org.tenantId } })).status).toBe(204);
    const read = await call('GET', `/api/v1/sensors/${sensor.sensor_id}`, { token: org.token });
    expect(read.body.zone_id).toBeNull();
    // The environment's count followed: it is empty of zones, so only the sensor blocks deletion.
    const del = await call('DELETE', `/api/v1/environments/${env.environment_id}`, { token: org.token });
    expect(del.body.detail).toMatch(/holds 1 sensors$|holds 1 sensors;/);
  });
});

describe('sensors.create', () => {
  it('a new sensor reads offline until it reports; a zone of another environment is 404', async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const sensor = await newSensor(org, env.environment_id);
    expect(sensor).toMatchObject({ health: 'offline', last_seen_at: null, status: 'active', type: 'camera' });
    const other = await newEnvironment(org, { name: 'Other' });
    const foreignZone = await newZone(org, other.environment_id);
    const res = await call('POST', '/api/v1/sensors', {
      token: org.token,
      body: { environment_id: env.environment_id, name: 'X', type: 'radar', location: { lat: 0, lon: 0 }, zone_id: foreignZone.zone_id },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Zone not found' });
  });
});

describe('sensors.heartbeat', () => {
  it('a report makes the sensor online; silence past the timeout makes it offline, half of it degraded', async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const quiet = await newSensor(org, env.environment_id, { name: 'Quiet' });
    const late = await newSensor(org, env.environment_id, { name: 'Late' });
    const beat = await call('POST', `/api/v1/sensors/${quiet.sensor_id}/heartbeat`, { token: org.token });
    expect(beat.status).toBe(200);
    expect(beat.body.health).toBe('online');
    // Reports as if made earlier: the default timeout is 300 s.
    await touchSensor(org.tenantId, late.sensor_id, new Date(Date.now() - 200_000).toISOString());
    const lateRead = await call('GET', `/api/v1/sensors/${late.sensor_id}`, { token: org.token });
    expect(lateRead.body.health).toBe('degraded');
    const silent = await newSensor(org, env.environment_id, { name: 'Silent' });
    await touchSensor(org.tenantId, silent.sensor_id, new Date(Date.now() - 301_000).toISOString());
    const list = await call('GET', '/api/v1/sensors', { token: org.token, query: { tenant_id: org.tenantId, environment_id: env.environment_id } });
    const health = Object.fromEntries(list.body.map((s: { name: string; health: string }) => [s.name, s.health]));
    expect(health).toEqual({ Quiet: 'online', Late: 'degraded', Silent: 'offline' });
  });

  it("follows the tenant's heartbeat timeout", async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const sensor = await newSensor(org, env.environment_id);
    await touchSensor(org.tenantId, sensor.sensor_id, new Date(Date.now() - 100_000).toISOString());
    expect((await call('GET', `/api/v1/sensors/${sensor.sensor_id}`, { token: org.token })).body.health).toBe('online');
    await call('PATCH', `/api/v1/tenants/${org.tenantId}/config`, { token: await asAdmin(), body: { sensor_heartbeat_timeout_seconds: 60 } });
    expect((await call('GET', `/api/v1/sensors/${sensor.sensor_id}`, { token: org.token })).body.health).toBe('offline');
  });

  it('an operator may report; a viewer may not; another tenant is 404', async () => {
    const a = await registerTenant('Port');
    const b = await registerTenant('Yard');
    const sensor = await newSensor(a, (await newEnvironment(a)).environment_id);
    const viewer = await createUser(a.token, 'VIEWER');
    expect((await call('POST', `/api/v1/sensors/${sensor.sensor_id}/heartbeat`, { token: viewer.token })).status).toBe(403);
    const operator = await createUser(a.token, 'OPERATOR');
    expect((await call('POST', `/api/v1/sensors/${sensor.sensor_id}/heartbeat`, { token: operator.token })).status).toBe(200);
    expect((await call('POST', `/api/v1/sensors/${sensor.sensor_id}/heartbeat`, { token: b.token })).status).toBe(404);
  });
});

describe('sensors.list', () => {
  it('needs environment_id and tenant_id', async () => {
    const org = await registerTenant('Port');
    const res = await call('GET', '/api/v1/sensors', { token: org.token, query: { tenant_id: org.tenantId } });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['query', 'environment_id']);
  });
});

describe('sensors.get', () => {
  it('optional scoping must match; an id that is not a uuid is simply not found', async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const other = await newEnvironment(org, { name: 'Other' });
    const sensor = await newSensor(org, env.environment_id);
    const scoped = await call('GET', `/api/v1/sensors/${sensor.sensor_id}`, { token: org.token, query: { environment_id: env.environment_id, tenant_id: org.tenantId } });
    expect(scoped.status).toBe(200);
    expect((await call('GET', `/api/v1/sensors/${sensor.sensor_id}`, { token: org.token, query: { environment_id: other.environment_id } })).status).toBe(404);
    expect((await call('GET', '/api/v1/sensors/cam-7', { token: org.token })).status).toBe(404);
  });
});

describe('sensors.update', () => {
  it('changes fields and audits them', async () => {
    const org = await registerTenant('Port');
    const sensor = await newSensor(org, (await newEnvironment(org)).environment_id);
    const res = await call('PATCH', `/api/v1/sensors/${sensor.sensor_id}`, { token: org.token, body: { status: 'maintenance', name: 'Gate camera 2' } });
    expect(res.body).toMatchObject({ status: 'maintenance', name: 'Gate camera 2', health: 'offline' });
    const audit = await auditEntriesOf(org.tenantId);
    expect(audit.at(-1)).toMatchObject({ action: 'sensor.updated', changes: { status: { from: 'active', to: 'maintenance' }, name: { from: 'Gate camera', to: 'Gate camera 2' } } });
  });
});

describe('sensors.delete', () => {
  it('deletes once', async () => {
    const org = await registerTenant('Port');
    const sensor = await newSensor(org, (await newEnvironment(org)).environment_id);
    expect((await call('DELETE', `/api/v1/sensors/${sensor.sensor_id}`, { token: org.token })).status).toBe(204);
    expect((await call('DELETE', `/api/v1/sensors/${sensor.sensor_id}`, { token: org.token })).status).toBe(404);
  });
});

describe('assets.create', () => {
  it('takes a location or a geometry, not neither', async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const cable = await call('POST', '/api/v1/assets', {
      token: org.token,
      body: { environment_id: env.environment_id, name: 'Power cable', type: 'cable', criticality: 'critical', geometry: { type: 'LineString', coordinates: [[10.7, 59.9], [10.8, 59.95]] } },
    });
    expect(cable.status).toBe(201);
    expect(cable.body).toMatchObject({ type: 'cable', criticality: 'critical', location: null });
    const neither = await call('POST', '/api/v1/assets', { token: org.token, body: { environment_id: env.environment_id, name: 'X', type: 'gate' } });
    expect(neither.status).toBe(422);
    const badLine = await call('POST', '/api/v1/assets', {
      token: org.token,
      body: { environment_id: env.environment_id, name: 'X', type: 'cable', geometry: { type: 'LineString', coordinates: [[500, 0], [1, 1]] } },
    });
    expect(badLine.status).toBe(422);
    expect(badLine.body.detail[0].loc).toEqual(['body', 'geometry', 'coordinates']);
  });
});

describe('assets.list', () => {
  it("lists the tenant's assets, by environment, type and criticality", async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const other = await newEnvironment(org, { name: 'Other' });
    const make = async (environment_id: string, name: string, type: string, criticality: string) =>
      (await call('POST', '/api/v1/assets', { token: org.token, body: { environment_id, name, type, criticality, location: { lat: 1, lon: 1 } } })).body.asset_id;
    const gate = await make(env.environment_id, 'Gate', 'gate', 'high');
    const tower = await make(env.environment_id, 'Tower', 'tower', 'low');
    const ship = await make(other.environment_id, 'Ship', 'vessel', 'high');
    const ids = async (query: Record<string, string>) =>
      (await call('GET', '/api/v1/assets', { token: org.token, query })).body.map((a: { asset_id: string }) => a.asset_id);
    expect(await ids({})).toEqual([gate, tower, ship]);
    expect(await ids({ environment_id: env.environment_id })).toEqual([gate, tower]);
    expect(await ids({ criticality: 'high' })).toEqual([gate, ship]);
    expect(await ids({ environment_id: env.environment_id, type: 'tower' })).toEqual([tower]);
  });
});

describe('assets.get', () => {
  it("another tenant's asset is 404", async () => {
    const a = await registerTenant('Port');
    const b = await registerTenant('Yard');
    const env = await newEnvironment(a);
    const asset = (await call('POST', '/api/v1/assets', { token: a.token, body: { environment_id: env.environment_id, name: 'Gate', type: 'gate', location: { lat: 1, lon: 1 } } })).body;
    expect((await call('GET', `/api/v1/assets/${asset.asset_id}`, { token: a.token })).status).toBe(200);
    expect((await call('GET', `/api/v1/assets/${asset.asset_id}`, { token: b.token })).body).toEqual({ detail: 'Asset not found' });
  });
});

describe('assets.update', () => {
  it('cannot remove both location and geometry', async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const asset = (await call('POST', '/api/v1/assets', { token: org.token, body: { environment_id: env.environment_id, name: 'Gate', type: 'gate', location: { lat: 1, lon: 1 } } })).body;
    expect((await call('PATCH', `/api/v1/assets/${asset.asset_id}`, { token: org.token, body: { location: null } })).status).toBe(422);
    const ok = await call('PATCH', `/api/v1/assets/${asset.asset_id}`, { token: org.token, body: { criticality: 'critical' } });
    expect(ok.body.criticality).toBe('critical');
  });
});

describe('assets.delete', () => {
  it('deletes, and the environment can go then', async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const asset = (await call('POST', '/api/v1/assets', { token: org.token, body: { environment_id: env.environment_id, name: 'Gate', type: 'gate', location: { lat: 1, lon: 1 } } })).body;
    expect((await call('DELETE', `/api/v1/environments/${env.environment_id}`, { token: org.token })).status).toBe(409);
    expect((await call('DELETE', `/api/v1/assets/${asset.asset_id}`, { token: org.token })).status).toBe(204);
    expect((await call('DELETE', `/api/v1/environments/${env.environment_id}`, { token: org.token })).status).toBe(204);
  });
});

describe('sensors.heartbeat scoping', () => {
  it('a heartbeat scoped to another environment is 404 and records nothing', async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const other = await newEnvironment(org, { name: 'Other' });
    const sensor = await newSensor(org, env.environment_id);
    const res = await call('POST', `/api/v1/sensors/${sensor.sensor_id}/heartbeat`, { token: org.token, query: { environment_id: other.environment_id } });
    expect(res.status).toBe(404);
    const read = await call('GET', `/api/v1/sensors/${sensor.sensor_id}`, { token: org.token });
    expect(read.body.last_seen_at).toBeNull();
  });
});
