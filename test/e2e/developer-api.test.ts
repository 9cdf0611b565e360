/**
 * The `/v1` developer API over real HTTP: self-serve free keys (answered alike whether the address
 * has an account or not), keys of higher tiers for a TENANT_ADMIN, the tier's gate (403), its
 * minute (exactly 10 calls for free, then 429) with the X-RateLimit headers on every answer,
 * usage, and revocation taking effect on the next call.
 */
import { describe, expect, it } from 'vitest';
import {
  asAdmin,
  call,
  confirmRegistration,
  createUser,
  login,
  randomClientIp,
  registerTenant,
  shapeOf,
} from '../support/api.js';
import { waitForMail } from '../support/mail.js';

const email = (what: string) => `${what}-${Math.random().toString(36).slice(2, 10)}@dev.example`;

async function freeKey(): Promise<{ api_key: string; key_id: string; tenant_id: string }> {
  const res = await call('POST', '/v1/auth/keys', { body: { email: email('free'), tier: 'free' } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const limits = (res: { headers: Headers }) => ({
  limit: Number(res.headers.get('x-ratelimit-limit')),
  remaining: Number(res.headers.get('x-ratelimit-remaining')),
  reset: Number(res.headers.get('x-ratelimit-reset')),
});

/** Waits, when the current minute has less than `seconds` left, for the next one: a minute's count must not straddle two windows. */
async function freshMinute(seconds = 20): Promise<void> {
  const left = 60 - (Math.floor(Date.now() / 1000) % 60);
  if (left < seconds) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 200));
}

describe('developer.keys.issue', () => {
  it('gives a free key to anyone with an email, in a new developer tenant each time, and mails the address', async () => {
    const address = email('once');
    const res = await call('POST', '/v1/auth/keys', { body: { email: address, tier: 'free' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      tier: 'free',
      rate_limit: 10,
      monthly_quota: 1000,
      endpoints: ['keys', 'usage', 'threat-score', 'vessel-profile'],
    });
    expect(res.body.api_key).toMatch(/^ghk_/);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('x-ratelimit-limit')).toBe('5');
    // The key works and acts in its own new tenant.
    const usage = await call('GET', '/v1/usage', { token: res.body.api_key });
    expect(usage.body).toMatchObject({ tier: 'free', tenant_id: res.body.tenant_id, key_id: res.body.key_id });
    const [mail] = await waitForMail((m) => m.to.includes(address) && /developer key was requested/i.test(m.subject));
    expect(mail!.text).toContain('It is not linked to any account of this address');
    // Asking again with the address is answered alike, with a key to another new tenant.
    const again = await call('POST', '/v1/auth/keys', { body: { email: address, tier: 'free' } });
    expect(again.status, again.text).toBe(201);
    expect(again.body.tenant_id).not.toBe(res.body.tenant_id);
    expect((await call('GET', '/v1/usage', { token: again.body.api_key })).body.tenant_id).toBe(again.body.tenant_id);
    expect((await call('GET', '/v1/usage', { token: res.body.api_key })).status).toBe(200);
  });

  it('answers an address with an account or a pending registration as a new one, with a key that reaches none of the account, mails it alike, and leaves the address free to register', async () => {
    const org = await registerTenant('Taken', { plan: 'free' });
    const pending = email('pending');
    const registered = await call('POST', '/api/v1/portal/register', {
      body: { email: pending, password: 'Pending-Pass-1', organization_name: 'Pending Co' },
    });
    expect(registered.status).toBe(201);
    const fresh = email('fresh');
    const ask = (address: string) => call('POST', '/v1/auth/keys', { body: { email: address, tier: 'free' } });
    const taken = await ask(org.email);
    const half = await ask(pending);
    const free = await ask(fresh);

    // The same status, the same headers, the same fields of the same kinds.
    for (const res of [taken, half, free]) {
      expect(res.status, res.text).toBe(201);
      expect([...res.headers.keys()].sort()).toEqual([...free.headers.keys()].sort());
      expect(res.headers.get('content-type')).toBe(free.headers.get('content-type'));
      expect(res.headers.get('x-ratelimit-limit')).toBe('5');
      expect(shapeOf(res.body)).toEqual(shapeOf(free.body));
      expect(res.body).toMatchObject({ tier: 'free', rate_limit: 10, monthly_quota: 1000 });
    }

    // The key works, in a tenant of its own that looks like any developer's tenant.
    expect(taken.body.tenant_id).not.toBe(org.tenantId);
    const usage = await call('GET', '/v1/usage', { token: taken.body.api_key });
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({ tier: 'free', tenant_id: taken.body.tenant_id, key_id: taken.body.key_id });
    const users = await call('GET', '/api/v1/users', { apiKey: taken.body.api_key });
    const freeUsers = await call('GET', '/api/v1/users', { apiKey: free.body.api_key });
    expect(users.status).toBe(200);
    expect(users.body).toHaveLength(1);
    expect(users.body[0]).toMatchObject({ email: org.email, role: 'TENANT_ADMIN', tenant_id: taken.body.tenant_id });
    expect(users.body[0].user_id).not.toBe(org.userId);
    expect(shapeOf(users.body[0])).toEqual(shapeOf(freeUsers.body[0]));
    // Nothing of the account is reached through it.
    const byId = await call('GET', `/api/v1/users/${org.userId}`, { apiKey: taken.body.api_key });
    expect(byId.status).toBe(404);
    const theirs = await call('GET', '/api/v1/users', {
      apiKey: taken.body.api_key,
      query: { tenant_id: org.tenantId },
    });
    expect(theirs.status).toBe(404);
    const audit = await call('GET', `/api/v1/audit-logs/${org.tenantId}`, { apiKey: taken.body.api_key });
    expect(audit.status).toBe(404);

    // The account is as it was: its password logs in to its own tenant, which has its own user only.
    const token = await login(org.email, org.password);
    expect((await call('GET', '/api/v1/portal/me', { token })).body.tenant.tenant_id).toBe(org.tenantId);
    const own = await call('GET', '/api/v1/users', { token });
    expect(own.body.map((u: { user_id: string }) => u.user_id)).toEqual([org.userId]);
    // The pending registration still confirms, and then logs in with its password.
    await confirmRegistration(pending);
    expect(await login(pending, 'Pending-Pass-1')).toBeTruthy();

    // One mail each, the same whatever the address has.
    const mailed = async (address: string) => {
      const found = await waitForMail((m) => m.to.includes(address) && /developer key was requested/i.test(m.subject));
      expect(found).toHaveLength(1);
      return found[0]!;
    };
    const mails = [await mailed(org.email), await mailed(pending), await mailed(fresh)];
    for (const mail of mails) expect(mail.text).toContain('It is not linked to any account of this address');
    expect(new Set(mails.map((m) => `${m.subject}\n${m.text}`)).size).toBe(1);

    // Asking for a key with an address does not take it from its owner: they still register it.
    const owner = await call('POST', '/api/v1/portal/register', {
      body: { email: fresh, password: 'Owner-Pass-1', organization_name: 'Owner Co' },
    });
    expect(owner.status).toBe(201);
    await confirmRegistration(fresh);
    const ownerToken = await login(fresh, 'Owner-Pass-1');
    expect((await call('GET', '/api/v1/portal/me', { token: ownerToken })).body.tenant.tenant_id).toBe(
      owner.body.tenant_id,
    );
  });

  it('counts at most 5 requests a minute from one client address, whatever the addresses asked for', async () => {
    const org = await registerTenant('Limited', { plan: 'free' });
    const from = randomClientIp();
    const statuses = [];
    for (const address of [org.email, email('a'), org.email, email('b'), email('c'), email('d')]) {
      const res = await call('POST', '/v1/auth/keys', {
        headers: { 'x-forwarded-for': from },
        body: { email: address, tier: 'free' },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });

  it('gives pro and enterprise keys only to a TENANT_ADMIN whose plan allows them', async () => {
    expect((await call('POST', '/v1/auth/keys', { body: { email: email('anon'), tier: 'pro' } })).status).toBe(401);
    const org = await registerTenant('Developer', { plan: 'free' });
    const viewer = await createUser(org.token, 'VIEWER');
    expect(
      (await call('POST', '/v1/auth/keys', { token: viewer.token, body: { email: org.email, tier: 'pro' } })).status,
    ).toBe(403);
    // A free tenant may hold free keys only.
    const onFree = await call('POST', '/v1/auth/keys', { token: org.token, body: { email: org.email, tier: 'pro' } });
    expect(onFree.status).toBe(403);
    expect(onFree.body.detail).toMatch(/free plan does not allow pro/);
    expect(
      (await call('PATCH', `/api/v1/tenants/${org.tenantId}`, { token: await asAdmin(), body: { plan: 'enterprise' } }))
        .status,
    ).toBe(200);
    const pro = await call('POST', '/v1/auth/keys', { token: org.token, body: { email: org.email, tier: 'pro' } });
    expect(pro.status, pro.text).toBe(201);
    expect(pro.body).toMatchObject({ tier: 'pro', rate_limit: 120, monthly_quota: 100000, tenant_id: org.tenantId });
    const enterprise = await call('POST', '/v1/auth/keys', {
      token: org.token,
      body: { email: org.email, tier: 'enterprise', rate_limit: 3 },
    });
    expect(enterprise.body).toMatchObject({ tier: 'enterprise', rate_limit: 3, monthly_quota: null });
    // An API key cannot mint keys; a rate is the enterprise tier's alone.
    expect(
      (await call('POST', '/v1/auth/keys', { token: pro.body.api_key, body: { email: org.email, tier: 'free' } }))
        .status,
    ).toBe(403);
    const rated = await call('POST', '/v1/auth/keys', {
      token: org.token,
      body: { email: org.email, tier: 'pro', rate_limit: 5 },
    });
    expect(rated.status).toBe(422);
    expect(rated.body.detail[0].loc).toEqual(['body', 'rate_limit']);
    // The enterprise key's own rate holds.
    await freshMinute(10);
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await call('GET', '/v1/usage', { token: enterprise.body.api_key })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('developer.usage', () => {
  it('lets a free key make exactly 10 calls a minute with correct headers, then 429', async () => {
    const key = await freeKey();
    await freshMinute();
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(await call('GET', '/v1/usage', { token: key.api_key }));
    expect(answers.map((a) => a.status)).toEqual([...Array(10).fill(200), 429]);
    const minuteEnd = Math.floor(Date.now() / 60_000) * 60 + 60;
    answers
      .slice(0, 10)
      .forEach((a, i) => expect(limits(a)).toEqual({ limit: 10, remaining: 9 - i, reset: minuteEnd }));
    const refused = answers[10]!;
    expect(limits(refused)).toEqual({ limit: 10, remaining: 0, reset: minuteEnd });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('x-request-id')).toBeTruthy();
    expect(refused.body.detail).toMatch(/at most 10 per minute/);
    expect(answers[9]!.body).toMatchObject({
      tier: 'free',
      rate_limit: { per_minute: 10, remaining: 0 },
      monthly: { quota: 1000, used: 10, remaining: 990 },
    });
  });

  it('refuses a missing or bad key with 401, carrying the headers', async () => {
    const none = await call('GET', '/v1/usage');
    expect(none.status).toBe(401);
    expect(none.headers.get('x-ratelimit-limit')).toBe('10');
    expect(none.headers.get('x-request-id')).toBeTruthy();
    const bad = await call('GET', '/v1/usage', { token: 'ghk_not-a-key' });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ detail: 'Invalid API key' });
  });

  it("serves a bearer token too, at its tenant plan's tier", async () => {
    const org = await registerTenant('Bearer', { plan: 'free' });
    const res = await call('GET', '/v1/usage', { token: org.token });
    expect(res.body).toMatchObject({ tier: 'free', key_id: null, tenant_id: org.tenantId });
  });
});

describe('developer.cableRisk', () => {
  it('is outside the free tier (403, with the headers) and inside pro', async () => {
    const key = await freeKey();
    const refused = await call('GET', '/v1/cable-risk', { token: key.api_key, query: { lat: 51.15, lon: 1.6 } });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/free tier does not include cable-risk/);
    expect(limits(refused).limit).toBe(10);
    const org = await registerTenant('Cables', { plan: 'free' });
    await call('PATCH', `/api/v1/tenants/${org.tenantId}`, { token: await asAdmin(), body: { plan: 'pro' } });
    const pro = (await call('POST', '/v1/auth/keys', { token: org.token, body: { email: org.email, tier: 'pro' } }))
      .body;
    const risk = await call('GET', '/v1/cable-risk', { token: pro.api_key, query: { lat: 51.15, lon: 1.6 } });
    expect(risk.status, risk.text).toBe(200);
    expect(risk.body).toMatchObject({ risk: 0, nearest_lines: [] });
    expect(limits(risk)).toMatchObject({ limit: 120, remaining: 119 });
    const bad = await call('GET', '/v1/cable-risk', { token: pro.api_key, query: { lat: 91, lon: 1.6 } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'lat']);
    expect(limits(bad).limit).toBe(120);
  });
});

describe('developer.vesselProfile', () => {
  it("answers from the key's own tenant: 404 without AIS data, 422 for a bad MMSI", async () => {
    const key = await freeKey();
    const none = await call('GET', '/v1/vessel-profile', { token: key.api_key, query: { mmsi: '235000001' } });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ detail: 'No AIS data for this MMSI' });
    const bad = await call('GET', '/v1/vessel-profile', { token: key.api_key, query: { mmsi: '12' } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'mmsi']);
  });
});

describe('developer.keys.revoke', () => {
  it('revokes the calling key: its next call is 401', async () => {
    const key = await freeKey();
    const other = await freeKey();
    expect((await call('DELETE', `/v1/auth/keys/${other.key_id}`, { token: key.api_key })).status).toBe(404);
    const res = await call('DELETE', `/v1/auth/keys/${key.key_id}`, { token: key.api_key });
    expect(res.status).toBe(204);
    expect(res.headers.get('x-ratelimit-limit')).toBe('10');
    const after = await call('GET', '/v1/usage', { token: key.api_key });
    expect(after.status).toBe(401);
    expect((await call('GET', '/v1/usage', { token: other.api_key })).status).toBe(200);
  });
});
