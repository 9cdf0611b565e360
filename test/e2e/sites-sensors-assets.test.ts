/** Sensors and assets end to end, over real HTTP against the local stack (environments and zones: sites.test.ts). */
import { describe, expect, it } from 'vitest';
import { touchSensor } from '../../shared/domain/sites/sensors.js';
import { asAdmin, call, createUser, registerTenant } from '../support/api.js';
import { auditEntriesOf } from '../support/seed.js';
import { newEnvironment, newZone, newSensor } from '../support/sites.js';

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
      body: {
        environment_id: env.environment_id,
        name: 'X',
        type: 'radar',
        location: { lat: 0, lon: 0 },
        zone_id: foreignZone.zone_id,
      },
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
    const list = await call('GET', '/api/v1/sensors', {
      token: org.token,
      query: { tenant_id: org.tenantId, environment_id: env.environment_id },
    });
    const health = Object.fromEntries(list.body.map((s: { name: string; health: string }) => [s.name, s.health]));
    expect(health).toEqual({ Quiet: 'online', Late: 'degraded', Silent: 'offline' });
  });

  it("follows the tenant's heartbeat timeout", async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const sensor = await newSensor(org, env.environment_id);
    await touchSensor(org.tenantId, sensor.sensor_id, new Date(Date.now() - 100_000).toISOString());
    expect((await call('GET', `/api/v1/sensors/${sensor.sensor_id}`, { token: org.token })).body.health).toBe('online');
    await call('PATCH', `/api/v1/tenants/${org.tenantId}/config`, {
      token: await asAdmin(),
      body: { sensor_heartbeat_timeout_seconds: 60 },
    });
    expect((await call('GET', `/api/v1/sensors/${sensor.sensor_id}`, { token: org.token })).body.health).toBe(
      'offline',
    );
  });

  it('an operator may report; a viewer may not; another tenant is 404', async () => {
    const a = await registerTenant('Port');
    const b = await registerTenant('Yard');
    const sensor = await newSensor(a, (await newEnvironment(a)).environment_id);
    const viewer = await createUser(a.token, 'VIEWER');
    expect((await call('POST', `/api/v1/sensors/${sensor.sensor_id}/heartbeat`, { token: viewer.token })).status).toBe(
      403,
    );
    const operator = await createUser(a.token, 'OPERATOR');
    expect(
      (await call('POST', `/api/v1/sensors/${sensor.sensor_id}/heartbeat`, { token: operator.token })).status,
    ).toBe(200);
    expect((await call('POST', `/api/v1/sensors/${sensor.sensor_id}/heartbeat`, { token: b.token })).status).toBe(404);
  });
});

describe('sensors.list', () => {
  it('needs environment_id; the tenant comes from the credential', async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const sensor = await newSensor(org, env.environment_id);
    const own = await call('GET', '/api/v1/sensors', {
      token: org.token,
      query: { environment_id: env.environment_id },
    });
    expect(own.body.map((s: { sensor_id: string }) => s.sensor_id)).toEqual([sensor.sensor_id]);
    const res = await call('GET', '/api/v1/sensors', { token: org.token });
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
    const scoped = await call('GET', `/api/v1/sensors/${sensor.sensor_id}`, {
      token: org.token,
      query: { environment_id: env.environment_id, tenant_id: org.tenantId },
    });
    expect(scoped.status).toBe(200);
    expect(
      (
        await call('GET', `/api/v1/sensors/${sensor.sensor_id}`, {
          token: org.token,
          query: { environment_id: other.environment_id },
        })
      ).status,
    ).toBe(404);
    expect((await call('GET', '/api/v1/sensors/cam-7', { token: org.token })).status).toBe(404);
  });
});

describe('sensors.update', () => {
  it('changes fields and audits them', async () => {
    const org = await registerTenant('Port');
    const sensor = await newSensor(org, (await newEnvironment(org)).environment_id);
    const res = await call('PATCH', `/api/v1/sensors/${sensor.sensor_id}`, {
      token: org.token,
      body: { status: 'maintenance', name: 'Gate camera 2' },
    });
    expect(res.body).toMatchObject({ status: 'maintenance', name: 'Gate camera 2', health: 'offline' });
    const audit = await auditEntriesOf(org.tenantId);
    expect(audit.at(-1)).toMatchObject({
      action: 'sensor.updated',
      changes: { status: { from: 'active', to: 'maintenance' }, name: { from: 'Gate camera', to: 'Gate camera 2' } },
    });
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
      body: {
        environment_id: env.environment_id,
        name: 'Power cable',
        type: 'cable',
        criticality: 'critical',
        geometry: {
          type: 'LineString',
          coordinates: [
            [10.7, 59.9],
            [10.8, 59.95],
          ],
        },
      },
    });
    expect(cable.status).toBe(201);
    expect(cable.body).toMatchObject({ type: 'cable', criticality: 'critical', location: null });
    const neither = await call('POST', '/api/v1/assets', {
      token: org.token,
      body: { environment_id: env.environment_id, name: 'X', type: 'gate' },
    });
    expect(neither.status).toBe(422);
    const badLine = await call('POST', '/api/v1/assets', {
      token: org.token,
      body: {
        environment_id: env.environment_id,
        name: 'X',
        type: 'cable',
        geometry: {
          type: 'LineString',
          coordinates: [
            [500, 0],
            [1, 1],
          ],
        },
      },
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
      (
        await call('POST', '/api/v1/assets', {
          token: org.token,
          body: { environment_id, name, type, criticality, location: { lat: 1, lon: 1 } },
        })
      ).body.asset_id;
    const gate = await make(env.environment_id, 'Gate', 'gate', 'high');
    const tower = await make(env.environment_id, 'Tower', 'tower', 'low');
    const ship = await make(other.environment_id, 'Ship', 'vessel', 'high');
    const ids = async (query: Record<string, string>) =>
      (await call('GET', '/api/v1/assets', { token: org.token, query })).body.map(
        (a: { asset_id: string }) => a.asset_id,
      );
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
    const asset = (
      await call('POST', '/api/v1/assets', {
        token: a.token,
        body: { environment_id: env.environment_id, name: 'Gate', type: 'gate', location: { lat: 1, lon: 1 } },
      })
    ).body;
    expect((await call('GET', `/api/v1/assets/${asset.asset_id}`, { token: a.token })).status).toBe(200);
    expect((await call('GET', `/api/v1/assets/${asset.asset_id}`, { token: b.token })).body).toEqual({
      detail: 'Asset not found',
    });
  });
});

describe('assets.update', () => {
  it('cannot remove both location and geometry', async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const asset = (
      await call('POST', '/api/v1/assets', {
        token: org.token,
        body: { environment_id: env.environment_id, name: 'Gate', type: 'gate', location: { lat: 1, lon: 1 } },
      })
    ).body;
    expect(
      (await call('PATCH', `/api/v1/assets/${asset.asset_id}`, { token: org.token, body: { location: null } })).status,
    ).toBe(422);
    const ok = await call('PATCH', `/api/v1/assets/${asset.asset_id}`, {
      token: org.token,
      body: { criticality: 'critical' },
    });
    expect(ok.body.criticality).toBe('critical');
  });
});

describe('assets.delete', () => {
  it('deletes, and the environment can go then', async () => {
    const org = await registerTenant('Port');
    const env = await newEnvironment(org);
    const asset = (
      await call('POST', '/api/v1/assets', {
        token: org.token,
        body: { environment_id: env.environment_id, name: 'Gate', type: 'gate', location: { lat: 1, lon: 1 } },
      })
    ).body;
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
    const res = await call('POST', `/api/v1/sensors/${sensor.sensor_id}/heartbeat`, {
      token: org.token,
      query: { environment_id: other.environment_id },
    });
    expect(res.status).toBe(404);
    const read = await call('GET', `/api/v1/sensors/${sensor.sensor_id}`, { token: org.token });
    expect(read.body.last_seen_at).toBeNull();
  });
});
