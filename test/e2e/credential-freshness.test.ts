/**
 * The caller is read in one trip with the route's own lookups (shared/auth/authenticate.ts), and
 * nothing of it is kept between requests: a role change, a revoked key and a suspended tenant
 * apply on the very next request, on a route that prefetches (POST /events) as on one that does
 * not (GET /environments/{id}).
 */
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { putNewApiKey } from '../../shared/db/api-keys.js';
import { transactWrite } from '../../shared/db/transact.js';
import { newTimeId, now } from '../../shared/ids.js';
import { asAdmin, call, createUser, registerTenant } from '../support/api.js';

async function site() {
  const org = await registerTenant('Fresh');
  const env = (await call('POST', '/api/v1/environments', { token: org.token, body: { name: 'Gate', type: 'port' } }))
    .body;
  const sensor = (
    await call('POST', '/api/v1/sensors', {
      token: org.token,
      body: {
        environment_id: env.environment_id,
        name: 'Gate camera',
        type: 'camera',
        location: { lat: 59.91, lon: 10.75 },
      },
    })
  ).body;
  return { org, environmentId: env.environment_id as string, sensorId: sensor.sensor_id as string };
}

const event = (sensorId: string) => ({ type: 'motion.detected', sensor_id: sensorId });

describe('the caller on the very next request', () => {
  it('a demoted user may no longer ingest, and their key drops with them', async () => {
    const { org, environmentId, sensorId } = await site();
    const op = await createUser(org.token, 'TENANT_ADMIN');
    const minted = await call('POST', '/api/v1/portal/api-keys', {
      token: op.token,
      body: { name: 'feed', role: 'OPERATOR' },
    });
    expect(minted.status).toBe(201);
    const key = minted.body.api_key as string;
    expect((await call('POST', '/api/v1/events', { token: op.token, body: event(sensorId) })).status).toBe(201);
    expect((await call('POST', '/api/v1/events', { apiKey: key, body: event(sensorId) })).status).toBe(201);

    expect(
      (await call('PATCH', `/api/v1/users/${op.userId}`, { token: org.token, body: { role: 'VIEWER' } })).status,
    ).toBe(200);
    const byToken = await call('POST', '/api/v1/events', { token: op.token, body: event(sensorId) });
    expect(byToken.status).toBe(403);
    expect(byToken.body).toEqual({ detail: 'This needs the OPERATOR role' });
    expect((await call('POST', '/api/v1/events', { apiKey: key, body: event(sensorId) })).status).toBe(403);
    // Reading is still a VIEWER's right.
    expect((await call('GET', `/api/v1/environments/${environmentId}`, { token: op.token })).status).toBe(200);
  });

  it('a revoked key is refused at once, on ingest and on reads', async () => {
    const { org, environmentId, sensorId } = await site();
    const created = (
      await call('POST', '/api/v1/portal/api-keys', { token: org.token, body: { name: 'feed', role: 'OPERATOR' } })
    ).body;
    expect((await call('POST', '/api/v1/events', { apiKey: created.api_key, body: event(sensorId) })).status).toBe(201);
    expect((await call('DELETE', `/api/v1/portal/api-keys/${created.key_id}`, { token: org.token })).status).toBe(204);
    const ingest = await call('POST', '/api/v1/events', { apiKey: created.api_key, body: event(sensorId) });
    expect(ingest.status).toBe(401);
    expect(ingest.body).toEqual({ detail: 'Invalid API key' });
    expect((await call('GET', `/api/v1/environments/${environmentId}`, { apiKey: created.api_key })).status).toBe(401);
  });

  it('a suspended tenant is refused at once, by token and by key, and served again once reactivated', async () => {
    const { org, environmentId, sensorId } = await site();
    const key = (
      await call('POST', '/api/v1/portal/api-keys', { token: org.token, body: { name: 'feed', role: 'OPERATOR' } })
    ).body.api_key as string;
    const admin = await asAdmin();
    expect(
      (await call('PATCH', `/api/v1/tenants/${org.tenantId}`, { token: admin, body: { status: 'suspended' } })).status,
    ).toBe(200);
    for (const credential of [{ token: org.token }, { apiKey: key }]) {
      const ingest = await call('POST', '/api/v1/events', { ...credential, body: event(sensorId) });
      expect(ingest.status).toBe(403);
      expect(ingest.body).toEqual({ detail: 'This tenant is suspended' });
      expect((await call('GET', `/api/v1/environments/${environmentId}`, credential)).status).toBe(403);
    }
    expect(
      (await call('PATCH', `/api/v1/tenants/${org.tenantId}`, { token: admin, body: { status: 'active' } })).status,
    ).toBe(200);
    expect((await call('POST', '/api/v1/events', { token: org.token, body: event(sensorId) })).status).toBe(201);
    expect((await call('GET', `/api/v1/environments/${environmentId}`, { apiKey: key })).status).toBe(200);
  });

  it('a deleted sensor is not found on the next event, though the edge read it with the caller', async () => {
    const { org, sensorId } = await site();
    expect((await call('POST', '/api/v1/events', { token: org.token, body: event(sensorId) })).status).toBe(201);
    expect((await call('DELETE', `/api/v1/sensors/${sensorId}`, { token: org.token })).status).toBe(204);
    const res = await call('POST', '/api/v1/events', { token: org.token, body: event(sensorId) });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Sensor not found' });
  });

  it('a key minted before keys named their creator still works, and its creator still caps it', async () => {
    const { org, sensorId } = await site();
    const lead = await createUser(org.token, 'TENANT_ADMIN');
    // The earlier format: ghk_ + key id + tenant id + secret, no creator part.
    const keyId = newTimeId();
    const oldKey = `ghk_${keyId.replace(/-/g, '')}${org.tenantId.replace(/-/g, '')}${randomBytes(32).toString('base64url')}`;
    await transactWrite([
      putNewApiKey({
        key_id: keyId,
        tenant_id: org.tenantId,
        name: 'old feed',
        role: 'OPERATOR',
        prefix: oldKey.slice(0, 12),
        expires_at: null,
        ip_allowlist: [],
        created_by: lead.userId,
        created_at: now(),
        key_hash: createHash('sha256').update(oldKey).digest('hex'),
      }),
    ]);
    expect((await call('POST', '/api/v1/events', { apiKey: oldKey, body: event(sensorId) })).status).toBe(201);
    expect(
      (await call('PATCH', `/api/v1/users/${lead.userId}`, { token: org.token, body: { role: 'VIEWER' } })).status,
    ).toBe(200);
    expect((await call('POST', '/api/v1/events', { apiKey: oldKey, body: event(sensorId) })).status).toBe(403);
  });
});
