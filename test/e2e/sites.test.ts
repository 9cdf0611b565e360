/** Environments and zones end to end, over real HTTP against the local stack (sensors and assets: sites-sensors-assets.test.ts). */
import { PutObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { BUCKET, environmentPrefix, s3 } from '../../shared/adapters/s3.js';
import { call, createUser, registerTenant } from '../support/api.js';
import { auditEntriesOf } from '../support/seed.js';
import { square, harbourWithBasin, newEnvironment, newZone, newSensor } from '../support/sites.js';

describe('environments.create', () => {
  it('creates an environment in the caller tenant and audits it', async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org, { location: { lat: 59.9, lon: 10.7 }, description: 'Container terminal' });
    expect(env).toMatchObject({
      tenant_id: org.tenantId,
      name: 'North Harbour',
      type: 'port',
      status: 'active',
      location: { lat: 59.9, lon: 10.7 },
    });
    const audit = await auditEntriesOf(org.tenantId);
    expect(audit.at(-1)).toMatchObject({ action: 'environment.created', resource_id: env.environment_id });
  });

  it('refuses an unknown type, and a viewer', async () => {
    const org = await registerTenant('Port');
    const bad = await call('POST', '/api/v1/environments', { token: org.token, body: { name: 'X', type: 'moonbase' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'type']);
    const viewer = await createUser(org.token, 'VIEWER');
    expect(
      (await call('POST', '/api/v1/environments', { token: viewer.token, body: { name: 'X', type: 'port' } })).status,
    ).toBe(403);
  });
});

describe('environments.list', () => {
  it('takes the tenant from the credential, and filters by type and status through the indexes', async () => {
    const org = await registerTenant('Port');
    const port = await newEnvironment(org, { name: 'Port', type: 'port' });
    const campus = await newEnvironment(org, { name: 'Campus', type: 'campus', status: 'maintenance' });
    const ship = await newEnvironment(org, { name: 'Ship', type: 'vessel' });
    const own = await call('GET', '/api/v1/environments', { token: org.token });
    expect(own.body.map((e: { environment_id: string }) => e.environment_id)).toEqual([
      port.environment_id,
      campus.environment_id,
      ship.environment_id,
    ]);
    const list = async (query: Record<string, string>) =>
      (
        await call('GET', '/api/v1/environments', { token: org.token, query: { tenant_id: org.tenantId, ...query } })
      ).body.map((e: { environment_id: string }) => e.environment_id);
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
    const res = await call('PATCH', `/api/v1/environments/${env.environment_id}`, {
      token: org.token,
      body: { status: 'maintenance' },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('maintenance');
    const inMaintenance = await call('GET', '/api/v1/environments', {
      token: org.token,
      query: { tenant_id: org.tenantId, status: 'maintenance' },
    });
    expect(inMaintenance.body.map((e: { environment_id: string }) => e.environment_id)).toEqual([env.environment_id]);
    const active = await call('GET', '/api/v1/environments', {
      token: org.token,
      query: { tenant_id: org.tenantId, status: 'active' },
    });
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
    const asset = (
      await call('POST', '/api/v1/assets', {
        token: org.token,
        body: {
          environment_id: env.environment_id,
          name: 'Crane 4',
          type: 'equipment',
          location: { lat: 59.905, lon: 10.705 },
        },
      })
    ).body;
    const prefix = environmentPrefix(org.tenantId, env.environment_id);
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: `${prefix}files/x/original.kml`, Body: '<kml/>' }));

    const res = await call('DELETE', `/api/v1/environments/${env.environment_id}`, {
      token: org.token,
      query: { cascade: 'true' },
    });
    expect(res.status).toBe(204);
    expect(
      (await call('GET', `/api/v1/zones/${zone.zone_id}`, { token: org.token, query: { tenant_id: org.tenantId } }))
        .status,
    ).toBe(404);
    expect((await call('GET', `/api/v1/sensors/${sensor.sensor_id}`, { token: org.token })).status).toBe(404);
    expect((await call('GET', `/api/v1/assets/${asset.asset_id}`, { token: org.token })).status).toBe(404);
    const objects = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
    expect(objects.KeyCount ?? 0).toBe(0);
    const actions = (await auditEntriesOf(org.tenantId)).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['zone.deleted', 'sensor.deleted', 'asset.deleted', 'environment.deleted']),
    );
  });

  it("another tenant's environment is 404 and stays", async () => {
    const a = await registerTenant('Port');
    const b = await registerTenant('Yard');
    const env = await newEnvironment(a);
    expect(
      (
        await call('DELETE', `/api/v1/environments/${env.environment_id}`, {
          token: b.token,
          query: { cascade: 'true' },
        })
      ).status,
    ).toBe(404);
    expect((await call('GET', `/api/v1/environments/${env.environment_id}`, { token: a.token })).status).toBe(200);
  });
});

describe('zones.create', () => {
  it('stores a polygon with a hole and reads it back exactly, with its area', async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const zone = await newZone(org, env.environment_id, { type: 'restricted', security_level: 5 });
    expect(zone.geofence).toEqual(harbourWithBasin);
    const read = await call('GET', `/api/v1/zones/${zone.zone_id}`, {
      token: org.token,
      query: { tenant_id: org.tenantId },
    });
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
    const circle = await newZone(org, env.environment_id, {
      geofence: { type: 'Circle', center: [10.7, 59.9], radius_m: 100 },
    });
    expect(circle.area_m2).toBeCloseTo(Math.PI * 100 * 100, 0);
    const multi = await newZone(org, env.environment_id, {
      geofence: { type: 'MultiPolygon', coordinates: [[square(10, 59, 0.01)], [square(10.1, 59, 0.01)]] },
    });
    expect(multi.geofence.type).toBe('MultiPolygon');
  });

  it.each([
    [
      'a self-intersecting ring',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 1],
            [1, 0],
            [0, 1],
            [0, 0],
          ],
        ],
      },
      'self_intersection',
    ],
    [
      'an open ring',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
          ],
        ],
      },
      'open_ring',
    ],
    [
      'a hole outside its polygon',
      { type: 'Polygon', coordinates: [square(0, 0, 1), square(5, 5, 1)] },
      'hole_outside',
    ],
    [
      'a latitude out of range',
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 95],
            [0, 0],
          ],
        ],
      },
      'maximum',
    ],
    ['a circle without radius', { type: 'Circle', center: [0, 0] }, 'missing'],
    [
      'a line',
      {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      },
      'enum',
    ],
  ])('%s is 422 under body.geofence', async (_what, geofence, type) => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const res = await call('POST', '/api/v1/zones', {
      token: org.token,
      body: { environment_id: env.environment_id, name: 'Bad', geofence },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc.slice(0, 2)).toEqual(['body', 'geofence']);
    expect(res.body.detail.map((d: { type: string }) => d.type)).toContain(type);
    const zones = await call('GET', '/api/v1/zones', {
      token: org.token,
      query: { tenant_id: org.tenantId, environment_id: env.environment_id },
    });
    expect(zones.body).toEqual([]);
  });

  it("another tenant's environment is 404", async () => {
    const a = await registerTenant('Port');
    const b = await registerTenant('Yard');
    const env = await newEnvironment(a);
    const res = await call('POST', '/api/v1/zones', {
      token: b.token,
      body: { environment_id: env.environment_id, name: 'X', geofence: harbourWithBasin },
    });
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
    const res = await call('GET', '/api/v1/zones', {
      token: org.token,
      query: { tenant_id: org.tenantId, environment_id: env.environment_id },
    });
    expect(res.body.map((z: { zone_id: string }) => z.zone_id)).toEqual([zone.zone_id]);
    const own = await call('GET', '/api/v1/zones', {
      token: org.token,
      query: { environment_id: env.environment_id },
    });
    expect(own.body.map((z: { zone_id: string }) => z.zone_id)).toEqual([zone.zone_id]);
  });
});

describe('zones.get', () => {
  it('takes the tenant from the credential; another tenant is 404', async () => {
    const a = await registerTenant('Port');
    const b = await registerTenant('Yard');
    const zone = await newZone(a, (await newEnvironment(a)).environment_id);
    expect((await call('GET', `/api/v1/zones/${zone.zone_id}`, { token: a.token })).body.zone_id).toBe(zone.zone_id);
    expect((await call('GET', `/api/v1/zones/${zone.zone_id}`, { token: b.token })).status).toBe(404);
    expect(
      (await call('GET', `/api/v1/zones/${zone.zone_id}`, { token: b.token, query: { tenant_id: b.tenantId } })).status,
    ).toBe(404);
    expect(
      (await call('GET', `/api/v1/zones/${zone.zone_id}`, { token: b.token, query: { tenant_id: a.tenantId } })).status,
    ).toBe(404);
  });
});

describe('zones.update', () => {
  it('a new geofence is checked and measured again', async () => {
    const org = await registerTenant('Port');
    const zone = await newZone(org, (await newEnvironment(org)).environment_id);
    const q = { tenant_id: org.tenantId };
    const ok = await call('PATCH', `/api/v1/zones/${zone.zone_id}`, {
      token: org.token,
      query: q,
      body: { geofence: { type: 'Circle', center: [10.7, 59.9], radius_m: 10 } },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.area_m2).toBeCloseTo(Math.PI * 100, 0);
    const bad = await call('PATCH', `/api/v1/zones/${zone.zone_id}`, {
      token: org.token,
      query: q,
      body: {
        geofence: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 1],
              [1, 0],
              [0, 1],
              [0, 0],
            ],
          ],
        },
      },
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
    expect(
      (await call('DELETE', `/api/v1/zones/${zone.zone_id}`, { token: org.token, query: { tenant_id: org.tenantId } }))
        .status,
    ).toBe(204);
    const read = await call('GET', `/api/v1/sensors/${sensor.sensor_id}`, { token: org.token });
    expect(read.body.zone_id).toBeNull();
    // The environment's count followed: it is empty of zones, so only the sensor blocks deletion.
    const del = await call('DELETE', `/api/v1/environments/${env.environment_id}`, { token: org.token });
    expect(del.body.detail).toMatch(/holds 1 sensors$|holds 1 sensors;/);
  });
});
