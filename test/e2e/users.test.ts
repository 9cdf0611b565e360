/** Users end to end: creation with and without a password, roles, updates that apply at once, deletion. */
import { describe, expect, it } from 'vitest';
import { asAdmin, call, createUser, login, registerTenant } from '../support/api.js';
import { auditEntriesOf } from '../support/seed.js';

describe('users.create', () => {
  it('a user created with a password logs in at once, and the creation is audited', async () => {
    const org = await registerTenant('Depot');
    const res = await call('POST', '/api/v1/users', {
      token: org.token,
      body: { email: 'Guard.One@Depot.example', role: 'OPERATOR', name: 'Guard One', password: 'Guard-one-Pass1' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      tenant_id: org.tenantId,
      email: 'guard.one@depot.example',
      role: 'OPERATOR',
      name: 'Guard One',
      active: true,
    });
    const token = await login('guard.one@depot.example', 'Guard-one-Pass1');
    const me = await call('GET', `/api/v1/users/${res.body.user_id}`, { token });
    expect(me.status).toBe(200);
    const audit = await auditEntriesOf(org.tenantId);
    expect(audit.at(-1)).toMatchObject({ action: 'user.created', resource_id: res.body.user_id, user_id: org.userId });
  });

  it('a user created without a password exists but cannot log in', async () => {
    const org = await registerTenant('Depot');
    const res = await call('POST', '/api/v1/users', {
      token: org.token,
      body: { email: 'invited@depot.example', role: 'VIEWER' },
    });
    expect(res.status).toBe(201);
    const attempt = await call('POST', '/api/v1/portal/login', {
      body: { email: 'invited@depot.example', password: 'Anything-1x' },
    });
    expect(attempt.status).toBe(401);
  });

  it('an email in use is 409, in any tenant', async () => {
    const a = await registerTenant('Depot');
    const b = await registerTenant('Yard');
    const first = await call('POST', '/api/v1/users', {
      token: a.token,
      body: { email: 'same@x.example', role: 'VIEWER' },
    });
    expect(first.status).toBe(201);
    const again = await call('POST', '/api/v1/users', {
      token: b.token,
      body: { email: 'SAME@x.example', role: 'VIEWER' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: 'A user with this email exists' });
  });

  it('nobody gives a role above their own; a TENANT_ADMIN cannot make a SUPER_ADMIN', async () => {
    const org = await registerTenant('Depot');
    const res = await call('POST', '/api/v1/users', {
      token: org.token,
      body: { email: 'boss@depot.example', role: 'SUPER_ADMIN' },
    });
    expect(res.status).toBe(403);
    const list = await call('GET', '/api/v1/users', { token: org.token });
    expect(list.body.map((u: { email: string }) => u.email)).not.toContain('boss@depot.example');
  });

  it('a TENANT_ADMIN naming another tenant gets 404; a SUPER_ADMIN may', async () => {
    const a = await registerTenant('Depot');
    const b = await registerTenant('Yard');
    const cross = await call('POST', '/api/v1/users', {
      token: b.token,
      body: { tenant_id: a.tenantId, email: 'spy@yard.example', role: 'VIEWER' },
    });
    expect(cross.status).toBe(404);
    expect(cross.body).toEqual({ detail: 'Tenant not found' });
    const platform = await call('POST', '/api/v1/users', {
      token: await asAdmin(),
      body: { tenant_id: a.tenantId, email: `helper-${Date.now()}@depot.example`, role: 'OPERATOR' },
    });
    expect(platform.status).toBe(201);
    expect(platform.body.tenant_id).toBe(a.tenantId);
  });

  it('the free plan allows five users; the sixth is 402 naming the plan, even sent in parallel', async () => {
    const org = await registerTenant('Small', { plan: 'free' });
    for (let i = 0; i < 4; i++) {
      const ok = await call('POST', '/api/v1/users', {
        token: org.token,
        body: { email: `u${i}-${Date.now()}@small.example`, role: 'VIEWER' },
      });
      expect(ok.status).toBe(201);
    }
    const sixth = await call('POST', '/api/v1/users', {
      token: org.token,
      body: { email: `u6-${Date.now()}@small.example`, role: 'VIEWER' },
    });
    expect(sixth.status).toBe(402);
    expect(sixth.body).toMatchObject({ plan: 'free', limit: 'users', allowed: 5, upgrade: { plan: 'pro' } });
    expect(sixth.body.detail).toMatch(/free plan allows 5 users/);

    // Another tenant with room for one: of five created at once, one is stored.
    const race = await registerTenant('Race', { plan: 'free' });
    for (let i = 0; i < 3; i++) {
      const ok = await call('POST', '/api/v1/users', {
        token: race.token,
        body: { email: `r${i}-${Date.now()}@race.example`, role: 'VIEWER' },
      });
      expect(ok.status).toBe(201);
    }
    const statuses = await Promise.all(
      [0, 1, 2, 3, 4].map(
        async (i) =>
          (
            await call('POST', '/api/v1/users', {
              token: race.token,
              body: { email: `p${i}-${Date.now()}@race.example`, role: 'VIEWER' },
            })
          ).status,
      ),
    );
    expect(statuses.sort()).toEqual([201, 402, 402, 402, 402]);
    const listed = await call('GET', '/api/v1/users', { token: race.token, query: { limit: 50 } });
    expect(listed.body).toHaveLength(5);
  });

  it('validates the body', async () => {
    const org = await registerTenant('Depot');
    const res = await call('POST', '/api/v1/users', {
      token: org.token,
      body: { email: 'x', role: 'KING', password: 'short' },
    });
    expect(res.status).toBe(422);
    const locs = res.body.detail.map((d: { loc: string[] }) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.email', 'body.role', 'body.password']));
  });
});

describe('users.list', () => {
  it("lists the caller's tenant oldest first, paged", async () => {
    const org = await registerTenant('Depot');
    const op = await createUser(org.token, 'OPERATOR');
    const viewer = await createUser(org.token, 'VIEWER');
    const all = await call('GET', '/api/v1/users', { token: viewer.token });
    expect(all.status).toBe(200);
    expect(all.body.map((u: { user_id: string }) => u.user_id)).toEqual([org.userId, op.userId, viewer.userId]);
    const page = await call('GET', '/api/v1/users', { token: viewer.token, query: { limit: 1, offset: 1 } });
    expect(page.body.map((u: { user_id: string }) => u.user_id)).toEqual([op.userId]);
  });

  it("another tenant's id is 404 for a tenant user, and a SUPER_ADMIN may read any tenant", async () => {
    const a = await registerTenant('Depot');
    const b = await registerTenant('Yard');
    const cross = await call('GET', '/api/v1/users', { token: b.token, query: { tenant_id: a.tenantId } });
    expect(cross.status).toBe(404);
    expect(cross.text).not.toContain(a.email);
    const platform = await call('GET', '/api/v1/users', { token: await asAdmin(), query: { tenant_id: a.tenantId } });
    expect(platform.body.map((u: { email: string }) => u.email)).toEqual([a.email]);
  });
});

describe('users.get', () => {
  it("another tenant's user is answered exactly as an unknown one", async () => {
    const a = await registerTenant('Depot');
    const b = await registerTenant('Yard');
    const cross = await call('GET', `/api/v1/users/${a.userId}`, { token: b.token });
    const unknown = await call('GET', '/api/v1/users/00000000-0000-4000-8000-000000000000', { token: b.token });
    expect(cross.status).toBe(404);
    expect(cross.body).toEqual(unknown.body);
    expect(cross.body).toEqual({ detail: 'User not found' });
  });
});

describe('users.update', () => {
  it('a role change takes effect on the very next request', async () => {
    const org = await registerTenant('Depot');
    const op = await createUser(org.token, 'OPERATOR');
    const before = await call('POST', '/api/v1/users', {
      token: op.token,
      body: { email: `x-${Date.now()}@depot.example`, role: 'VIEWER' },
    });
    expect(before.status).toBe(403);
    const promoted = await call('PATCH', `/api/v1/users/${op.userId}`, {
      token: org.token,
      body: { role: 'TENANT_ADMIN' },
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body.role).toBe('TENANT_ADMIN');
    const after = await call('POST', '/api/v1/users', {
      token: op.token,
      body: { email: `y-${Date.now()}@depot.example`, role: 'VIEWER' },
    });
    expect(after.status).toBe(201);
    const audit = await auditEntriesOf(org.tenantId);
    expect(audit.find((e) => e.action === 'user.updated')!.changes).toEqual({
      role: { from: 'OPERATOR', to: 'TENANT_ADMIN' },
    });
  });

  it('a deactivated user is refused at once and cannot log in; reactivated, they can', async () => {
    const org = await registerTenant('Depot');
    const op = await createUser(org.token, 'OPERATOR');
    const off = await call('PATCH', `/api/v1/users/${op.userId}`, { token: org.token, body: { active: false } });
    expect(off.body.active).toBe(false);
    expect((await call('GET', '/api/v1/users', { token: op.token })).status).toBe(401);
    expect(
      (await call('POST', '/api/v1/portal/login', { body: { email: op.email, password: op.password } })).status,
    ).toBe(401);
    await call('PATCH', `/api/v1/users/${op.userId}`, { token: org.token, body: { active: true } });
    const token = await login(op.email, op.password);
    expect((await call('GET', '/api/v1/users', { token })).status).toBe(200);
  });

  it('nobody demotes or deactivates themselves, or grants above their role', async () => {
    const org = await registerTenant('Depot');
    const self = await call('PATCH', `/api/v1/users/${org.userId}`, { token: org.token, body: { role: 'VIEWER' } });
    expect(self.status).toBe(409);
    const op = await createUser(org.token, 'OPERATOR');
    const up = await call('PATCH', `/api/v1/users/${op.userId}`, { token: org.token, body: { role: 'SUPER_ADMIN' } });
    expect(up.status).toBe(403);
    const read = await call('GET', `/api/v1/users/${op.userId}`, { token: org.token });
    expect(read.body.role).toBe('OPERATOR');
  });

  it("another tenant's user is 404 and stays as it was", async () => {
    const a = await registerTenant('Depot');
    const b = await registerTenant('Yard');
    const op = await createUser(a.token, 'OPERATOR');
    const res = await call('PATCH', `/api/v1/users/${op.userId}`, { token: b.token, body: { active: false } });
    expect(res.status).toBe(404);
    expect((await call('GET', '/api/v1/users', { token: op.token })).status).toBe(200);
  });
});

describe('users.delete', () => {
  it("a deleted user's token, API keys and login stop working at once", async () => {
    const org = await registerTenant('Depot');
    const admin2 = await createUser(org.token, 'TENANT_ADMIN');
    const key = await call('POST', '/api/v1/portal/api-keys', {
      token: admin2.token,
      body: { name: 'camera bridge', role: 'OPERATOR' },
    });
    expect(key.status).toBe(201);
    const del = await call('DELETE', `/api/v1/users/${admin2.userId}`, { token: org.token });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await call('GET', '/api/v1/users', { token: admin2.token })).status).toBe(401);
    expect((await call('GET', '/api/v1/users', { apiKey: key.body.api_key })).status).toBe(401);
    expect(
      (await call('POST', '/api/v1/portal/login', { body: { email: admin2.email, password: admin2.password } })).status,
    ).toBe(401);
    const keys = await call('GET', '/api/v1/portal/api-keys', { token: org.token });
    expect(keys.body.map((k: { key_id: string }) => k.key_id)).not.toContain(key.body.key_id);
    const again = await call('DELETE', `/api/v1/users/${admin2.userId}`, { token: org.token });
    expect(again.status).toBe(404);
    const actions = (await auditEntriesOf(org.tenantId)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['user.deleted', 'api_key.revoked']));
  });

  it('nobody deletes themselves; a viewer deletes nobody', async () => {
    const org = await registerTenant('Depot');
    expect((await call('DELETE', `/api/v1/users/${org.userId}`, { token: org.token })).status).toBe(409);
    const viewer = await createUser(org.token, 'VIEWER');
    expect((await call('DELETE', `/api/v1/users/${org.userId}`, { token: viewer.token })).status).toBe(403);
    expect((await call('GET', `/api/v1/users/${org.userId}`, { token: org.token })).status).toBe(200);
  });
});
