/**
 * The `/v1` developer API over real HTTP: self-serve free keys, keys of higher tiers for a
 * TENANT_ADMIN, the tier's gate (403), its minute (exactly 10 calls for free, then 429) with the
 * X-RateLimit headers on every answer, usage, and revocation taking effect on the next call.
 */
import { describe, expect, it } from 'vitest';
import { asAdmin, call, createUser, registerTenant } from '../support/api.js';

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
  it('gives a free key to anyone with an email, once per email, in a new developer tenant', async () => {
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
    const again = await call('POST', '/v1/auth/keys', { body: { email: address, tier: 'free' } });
    expect(again.status).toBe(409);
    // The key works and acts in its own new tenant.
    const usage = await call('GET', '/v1/usage', { token: res.body.api_key });
    expect(usage.body).toMatchObject({ tier: 'free', tenant_id: res.body.tenant_id, key_id: res.body.key_id });
  });

  it('gives pro and enterprise keys only to a TENANT_ADMIN whose plan allows them', async () => {
    expect((await call('POST', '/v1/auth/keys', { body: { email: email('anon'), tier: 'pro' } })).status).toBe(401);
    const org = await registerTenant('Developer');
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
    const org = await registerTenant('Bearer');
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
    const org = await registerTenant('Cables');
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
