/** The account portal end to end: registration, plans, API keys, and the per-IP limits. */
import { describe, expect, it } from 'vitest';
import {
  asAdmin,
  baseUrl,
  call,
  confirmRegistration,
  createUser,
  login,
  randomClientIp,
  registerTenant,
  shapeOf,
} from '../support/api.js';
import { confirmationLinkFor, waitForMail } from '../support/mail.js';
import { auditEntriesOf } from '../support/seed.js';

describe('identity acceptance', () => {
  it('register, log in, create a user, log in as them, mint a key, use it, revoke it: the next call is 401', async () => {
    const org = await registerTenant('Harbour');
    const op = await createUser(org.token, 'TENANT_ADMIN');
    const minted = await call('POST', '/api/v1/portal/api-keys', {
      token: op.token,
      body: { name: 'radar bridge', role: 'OPERATOR' },
    });
    expect(minted.status).toBe(201);
    const use = await call('GET', '/api/v1/users', { apiKey: minted.body.api_key });
    expect(use.status).toBe(200);
    expect(use.body.map((u: { user_id: string }) => u.user_id)).toContain(op.userId);
    expect((await call('DELETE', `/api/v1/portal/api-keys/${minted.body.key_id}`, { token: op.token })).status).toBe(
      204,
    );
    const after = await call('GET', '/api/v1/users', { apiKey: minted.body.api_key });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ detail: 'Invalid API key' });
  });
});

const register = (body: Record<string, unknown>) => call('POST', '/api/v1/portal/register', { body });

describe('portal.register', () => {
  it('makes a tenant on the free plan with the registrant as TENANT_ADMIN once the mailed link is used', async () => {
    const email = `founder-${Date.now()}@newco.example`;
    const res = await register({
      email,
      password: 'Founder-Pass-1',
      organization_name: 'NewCo Security',
      name: 'Founder',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email, role: 'TENANT_ADMIN', plan: 'free', status: 'pending_confirmation' });
    // Not usable yet: the password just registered does not log in, and nothing of the tenant exists.
    const early = await call('POST', '/api/v1/portal/login', { body: { email, password: 'Founder-Pass-1' } });
    expect(early.status).toBe(401);
    expect((await call('GET', `/api/v1/tenants/${res.body.tenant_id}`, { token: await asAdmin() })).status).toBe(404);

    const link = await confirmationLinkFor(email);
    // Opening the link (a mail scanner, a person) shows a button and confirms nothing.
    const page = await call('GET', link);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<form method="post">');
    expect((await call('POST', '/api/v1/portal/login', { body: { email, password: 'Founder-Pass-1' } })).status).toBe(
      401,
    );

    const confirmed = await call('POST', link);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ ...res.body, status: 'active' });
    const token = await login(email, 'Founder-Pass-1');
    const me = await call('GET', `/api/v1/users/${res.body.user_id}`, { token });
    expect(me.body).toMatchObject({ role: 'TENANT_ADMIN', tenant_id: res.body.tenant_id, name: 'Founder' });
    const tenant = await call('GET', `/api/v1/tenants/${res.body.tenant_id}`, { token: await asAdmin() });
    expect(tenant.body).toMatchObject({ name: 'NewCo Security', plan: 'free', status: 'active' });
    const audit = await auditEntriesOf(res.body.tenant_id);
    expect(audit.map((e) => e.action).sort()).toEqual(['tenant.created', 'user.created']);
    expect(audit.every((e) => e.user_id === res.body.user_id)).toBe(true);

    // The link works once; its page then says it was used.
    expect((await call('POST', link)).status).toBe(403);
    expect((await call('GET', link)).text).toContain('Registration confirmed');
  });

  it('an address with an account is answered as a new one is, changes nothing, and its owner is told by mail', async () => {
    const org = await registerTenant('Dup');
    const fresh = `fresh-${Date.now()}@newco.example`;
    const name = `Dup Two ${Date.now()}`;
    const taken = await register({ email: org.email, password: 'Another-Pass-1', organization_name: name });
    const free = await register({ email: fresh, password: 'Another-Pass-1', organization_name: name });

    // The same status, the same headers, the same fields of the same kinds.
    expect(taken.status).toBe(201);
    expect(free.status).toBe(201);
    expect([...taken.headers.keys()].sort()).toEqual([...free.headers.keys()].sort());
    expect(taken.headers.get('content-type')).toBe(free.headers.get('content-type'));
    expect(shapeOf(taken.body)).toEqual(shapeOf(free.body));
    expect(taken.body).toMatchObject({ email: org.email, status: 'pending_confirmation' });
    expect(free.body).toMatchObject({ email: fresh, status: 'pending_confirmation' });
    // Registering either again names the same ids again.
    const takenAgain = await register({ email: org.email, password: 'Third-Pass-1', organization_name: name });
    const freeAgain = await register({ email: fresh, password: 'Third-Pass-1', organization_name: name });
    expect([takenAgain.body.tenant_id, takenAgain.body.user_id]).toEqual([taken.body.tenant_id, taken.body.user_id]);
    expect([freeAgain.body.tenant_id, freeAgain.body.user_id]).toEqual([free.body.tenant_id, free.body.user_id]);

    // The account is as it was: its password logs in, the one registered does not.
    expect(await login(org.email, org.password)).toBeTruthy();
    const other = await call('POST', '/api/v1/portal/login', {
      body: { email: org.email, password: 'Another-Pass-1' },
    });
    expect(other.status).toBe(401);
    const me = await call('GET', '/api/v1/portal/me', { token: org.token });
    expect(me.body.tenant.tenant_id).toBe(org.tenantId);
    // Its owner is told, and gets no link.
    const told = await waitForMail((m) => m.to.includes(org.email) && /tried to register/i.test(m.subject), 2);
    expect(told[0]!.text).toContain('Nothing was changed');
    expect(told.some((m) => /register\/confirm/.test(m.text))).toBe(false);
    // No tenant was made for it.
    const names: string[] = [];
    for (let offset = 0; ; offset += 200) {
      const page = await call('GET', '/api/v1/tenants', { token: await asAdmin(), query: { limit: 200, offset } });
      names.push(...page.body.map((t: { name: string }) => t.name));
      if (page.body.length < 200) break;
    }
    expect(names).not.toContain(name);

    // The new address works once confirmed, with the password of its latest registration.
    await confirmRegistration(fresh);
    expect(await login(fresh, 'Third-Pass-1')).toBeTruthy();
  });

  it('a password the pool refuses is 422 on body.password, and leaves no account', async () => {
    const email = `weak-${Date.now()}@newco.example`;
    const res = await call('POST', '/api/v1/portal/register', {
      body: { email, password: 'alllowercase', organization_name: 'Weak' },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'password']);
    const retry = await call('POST', '/api/v1/portal/register', {
      body: { email, password: 'Strong-Pass-1', organization_name: 'Weak' },
    });
    expect(retry.status).toBe(201);
  });

  it('the 11th registration from one address within a minute is 429; another address still registers', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const ip = randomClientIp();
      const burst = [];
      for (let i = 0; i < 11; i++) {
        burst.push(
          await call('POST', '/api/v1/portal/register', {
            body: { email: `x${i}@burst.example` },
            headers: { 'x-forwarded-for': ip },
          }),
        );
      }
      const resets = new Set(burst.map((r) => r.headers.get('x-ratelimit-reset')));
      if (resets.size > 1) continue;
      expect(burst.slice(0, 10).map((r) => r.status)).toEqual(Array(10).fill(422));
      expect(burst[0]!.headers.get('x-ratelimit-limit')).toBe('10');
      expect(burst[9]!.headers.get('x-ratelimit-remaining')).toBe('0');
      const limited = burst[10]!;
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(limited.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      expect(typeof limited.body.detail).toBe('string');
      const other = await call('POST', '/api/v1/portal/register', {
        body: { email: `other-${Date.now()}@burst.example`, password: 'Other-Pass-1', organization_name: 'Other' },
      });
      expect(other.status).toBe(201);
      return;
    }
    throw new Error('the rate-limit window turned during both bursts');
  });
});

describe('portal.register.confirm', () => {
  it('a link replaced by a newer registration, or a made-up one, is 403 and makes nothing', async () => {
    const email = `twice-${Date.now()}@newco.example`;
    const first = await register({ email, password: 'First-Pass-1', organization_name: 'Twice' });
    const firstLink = await confirmationLinkFor(email);
    await register({ email, password: 'Second-Pass-1', organization_name: 'Twice' });
    await waitForMail((m) => m.to.includes(email), 2);
    const made = firstLink.replace(/token=reg_([0-9a-f]{64}).*/, (_, h: string) => `token=reg_${h}${'A'.repeat(43)}`);
    for (const link of [firstLink, made, `${baseUrl()}/api/v1/portal/register/confirm?token=nonsense`]) {
      const refused = await call('POST', link);
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toMatch(/not valid/);
    }
    const admin = await asAdmin();
    expect((await call('GET', `/api/v1/tenants/${first.body.tenant_id}`, { token: admin })).status).toBe(404);
    expect((await call('POST', '/api/v1/portal/login', { body: { email, password: 'First-Pass-1' } })).status).toBe(
      401,
    );
  });
});

describe('portal.register.confirm.page', () => {
  it("the button posts the link's form and comes back to a page saying it is confirmed", async () => {
    const email = `clicker-${Date.now()}@newco.example`;
    await register({ email, password: 'Clicker-Pass-1', organization_name: 'Clicker' });
    const link = await confirmationLinkFor(email);
    const page = await call('GET', link);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.text).toContain('Confirm your registration');
    const clicked = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': randomClientIp() },
      redirect: 'manual',
    });
    expect(clicked.status).toBe(303);
    expect((await call('GET', new URL(clicked.headers.get('location')!, link).href)).text).toContain(
      'Registration confirmed',
    );
    expect(await login(email, 'Clicker-Pass-1')).toBeTruthy();
    const wrong = await call('GET', '/api/v1/portal/register/confirm', { query: { token: 'reg_nonsense' } });
    expect(wrong.status).toBe(200);
    expect(wrong.text).toContain('This link is not valid');
  });
});

describe('portal.login', () => {
  it('the 31st login from one address within a minute is 429', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const ip = randomClientIp();
      const results = [];
      for (let i = 0; i < 31; i++) {
        // Another account each time: one account's failures lock it on their own (see below).
        results.push(
          await call('POST', '/api/v1/portal/login', {
            body: { email: `nobody-${i}-${ip}@x.example`, password: 'Wrong-pass-1' },
            headers: { 'x-forwarded-for': ip },
          }),
        );
      }
      if (new Set(results.map((r) => r.headers.get('x-ratelimit-reset'))).size > 1) continue;
      expect(results.slice(0, 30).every((r) => r.status === 401)).toBe(true);
      expect(results[30]!.status).toBe(429);
      expect(results[30]!.headers.get('retry-after')).toBeTruthy();
      return;
    }
    throw new Error('the rate-limit window turned during both bursts');
  });
});

describe('portal.me', () => {
  it('the login answer and GET /portal/me name the tenant, user and role; an API key sees itself', async () => {
    const org = await registerTenant('Me', { plan: 'free' });
    const login = await call('POST', '/api/v1/portal/login', { body: { email: org.email, password: org.password } });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({
      tenant_id: org.tenantId,
      user_id: org.userId,
      role: 'TENANT_ADMIN',
      token_type: 'bearer',
    });
    expect(Date.parse(login.body.expires_at)).toBeGreaterThan(Date.now());
    const me = await call('GET', '/api/v1/portal/me', { token: login.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      via: 'bearer',
      user_id: org.userId,
      email: org.email,
      role: 'TENANT_ADMIN',
      api_key_id: null,
    });
    expect(me.body.tenant).toMatchObject({ tenant_id: org.tenantId, plan: 'free', status: 'active' });
    expect(me.body.limits.requests_per_minute).toBe(100);
    // The tenant id from `me` is what the tenant-scoped lists take.
    expect(
      (await call('GET', '/api/v1/environments', { token: org.token, query: { tenant_id: me.body.tenant.tenant_id } }))
        .status,
    ).toBe(200);

    const key = await call('POST', '/api/v1/portal/api-keys', {
      token: org.token,
      body: { name: 'ingest', role: 'OPERATOR' },
    });
    const viaKey = await call('GET', '/api/v1/portal/me', { apiKey: key.body.api_key });
    expect(viaKey.status).toBe(200);
    expect(viaKey.body).toMatchObject({
      via: 'api_key',
      user_id: org.userId,
      email: null,
      role: 'OPERATOR',
      api_key_id: key.body.key_id,
    });
    expect((await call('GET', '/api/v1/portal/me')).status).toBe(401);
  });
});

describe('portal.settings.get', () => {
  it("reads the credential's own tenant; naming another tenant reads nothing of it", async () => {
    const org = await registerTenant('OwnOnly');
    const other = await registerTenant('NotMine');
    await call('PATCH', '/api/v1/portal/settings', { token: other.token, body: { incident_threshold: 0.42 } });
    const res = await call('GET', '/api/v1/portal/settings', { token: org.token });
    expect(res.body).toMatchObject({ tenant_id: org.tenantId, incident_threshold: 0.7 });
    const named = await call('GET', '/api/v1/portal/settings', {
      token: org.token,
      query: { tenant_id: other.tenantId },
    });
    expect(named.body).toMatchObject({ tenant_id: org.tenantId, incident_threshold: 0.7 });
  });
});

describe('portal.settings.update', () => {
  it("a TENANT_ADMIN reads and tunes its own tenant's settings, audited; the change steers the next event", async () => {
    const org = await registerTenant('Tune');
    const other = await registerTenant('Untouched');
    const read = await call('GET', '/api/v1/portal/settings', { token: org.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      tenant_id: org.tenantId,
      incident_threshold: 0.7,
      sla_minutes: { critical: 15 },
    });

    const env = (await call('POST', '/api/v1/environments', { token: org.token, body: { name: 'Yard', type: 'site' } }))
      .body;
    const event = () => ({ type: 'motion.detected', environment_id: env.environment_id, severity: 'low' });
    const before = await call('POST', '/api/v1/events', { token: org.token, body: event() });
    expect(before.status).toBe(201);
    expect(before.body.incident_id).toBeNull();

    const patched = await call('PATCH', '/api/v1/portal/settings', {
      token: org.token,
      body: { incident_threshold: 0.01, sla_minutes: { critical: 5 } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      incident_threshold: 0.01,
      sla_minutes: { critical: 5, high: 60, medium: 240, low: 1440 },
    });
    const after = await call('POST', '/api/v1/events', { token: org.token, body: event() });
    expect(after.body.threat_score).toBeGreaterThanOrEqual(0.01);
    expect(after.body.incident_id).toBeTruthy();

    // The SUPER_ADMIN's view of the same configuration agrees; the other tenant is untouched.
    const admin = await asAdmin();
    expect(
      (await call('GET', `/api/v1/tenants/${org.tenantId}/config`, { token: admin })).body.incident_threshold,
    ).toBe(0.01);
    expect((await call('GET', '/api/v1/portal/settings', { token: other.token })).body.incident_threshold).toBe(0.7);
    const audit = (await auditEntriesOf(org.tenantId)).filter((e) => e.action === 'tenant_config.updated');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ user_id: org.userId, changes: { incident_threshold: { from: 0.7, to: 0.01 } } });
  });

  it('is refused below TENANT_ADMIN, validated field by field, and takes no tenant_id', async () => {
    const org = await registerTenant('TuneGuard');
    const operator = await createUser(org.token, 'OPERATOR');
    expect((await call('GET', '/api/v1/portal/settings', { token: operator.token })).status).toBe(403);
    expect(
      (await call('PATCH', '/api/v1/portal/settings', { token: operator.token, body: { incident_threshold: 0.1 } }))
        .status,
    ).toBe(403);
    const bad = await call('PATCH', '/api/v1/portal/settings', {
      token: org.token,
      body: { retention_days: { audit_logs: 30 } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'retention_days', 'audit_logs']);
    const unknown = await call('PATCH', '/api/v1/portal/settings', {
      token: org.token,
      body: { tenant_id: org.tenantId },
    });
    expect(unknown.status).toBe(422);
    expect((await call('GET', '/api/v1/portal/settings', { token: org.token })).body.retention_days.audit_logs).toBe(
      400,
    );
  });
});

describe('portal.settings.update: integrations in the escalation policy', () => {
  it("a level names the tenant's own integrations; another tenant's is answered as an unknown one, 404, changing nothing", async () => {
    const org = await registerTenant('PolicyInt');
    const other = await registerTenant('PolicyIntOther');
    const hook = { kind: 'http', config: { url: 'http://127.0.0.1:9/hook' } };
    const mine = (await call('POST', '/api/v1/integrations', { token: org.token, body: { name: 'SOC', ...hook } })).body
      .integration_id as string;
    const theirs = (
      await call('POST', '/api/v1/integrations', { token: other.token, body: { name: 'Theirs', ...hook } })
    ).body.integration_id as string;
    const unknown = '0190c5d1-0000-7000-8000-000000000000';

    // Levels without integrations read as naming none.
    const before = (await call('GET', '/api/v1/portal/settings', { token: org.token })).body;
    expect(before.escalation_policy.levels.map((l: { integration_ids: string[] }) => l.integration_ids)).toEqual([
      [],
      [],
      [],
    ]);

    const levels = (first: string[]) => ({
      escalation_policy: {
        levels: [
          { after_minutes: 10, notify_roles: ['OPERATOR'], integration_ids: first },
          { after_minutes: 20, notify_roles: ['TENANT_ADMIN'] },
        ],
      },
    });
    const foreign = await call('PATCH', '/api/v1/portal/settings', { token: org.token, body: levels([mine, theirs]) });
    const missing = await call('PATCH', '/api/v1/portal/settings', { token: org.token, body: levels([unknown]) });
    expect([foreign.status, missing.status]).toEqual([404, 404]);
    expect(foreign.body).toEqual({ detail: 'Integration not found' });
    expect(missing.body).toEqual(foreign.body);
    expect((await call('GET', '/api/v1/portal/settings', { token: org.token })).body.escalation_policy).toEqual(
      before.escalation_policy,
    );

    const saved = await call('PATCH', '/api/v1/portal/settings', { token: org.token, body: levels([mine]) });
    expect(saved.status).toBe(200);
    expect(saved.body.escalation_policy.levels).toEqual([
      { after_minutes: 10, notify_roles: ['OPERATOR'], integration_ids: [mine] },
      { after_minutes: 20, notify_roles: ['TENANT_ADMIN'], integration_ids: [] },
    ]);
    const tooMany = Array.from({ length: 11 }, () => crypto.randomUUID());
    const many = await call('PATCH', '/api/v1/portal/settings', {
      token: org.token,
      body: {
        escalation_policy: { levels: [{ after_minutes: 10, notify_roles: ['OPERATOR'], integration_ids: tooMany }] },
      },
    });
    expect(many.status).toBe(422);
    expect(many.body.detail[0].loc).toEqual(['body', 'escalation_policy', 'levels', 0, 'integration_ids']);
  });
});

describe('portal.login, per account', () => {
  it('five failed logins in a row from five addresses lock the account, even for the right password; a success forgets failures', async () => {
    const org = await registerTenant('Locked');
    const attempt = (password: string) =>
      call('POST', '/api/v1/portal/login', { body: { email: org.email, password } });
    for (let i = 0; i < 4; i++) expect((await attempt('Wrong-pass-1')).status).toBe(401);
    // A success clears the four failures: four more are still not a lock.
    expect((await attempt(org.password)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await attempt('Wrong-pass-1')).status).toBe(401);
    const fifth = await attempt('Wrong-pass-1');
    expect(fifth.status).toBe(429);
    const wait = Number(fifth.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(30);
    expect(fifth.body.detail).toContain('failed logins');
    // Locked: the right password is not even tried, from any address.
    const right = await attempt(org.password);
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('x-ratelimit-remaining'))).toBe(0);
    // Another account is not affected.
    const other = await registerTenant('Unlocked');
    expect(
      (await call('POST', '/api/v1/portal/login', { body: { email: other.email, password: other.password } })).status,
    ).toBe(200);
  });

  // Each call comes from its own client address (test/support/api.ts), so only the account's lock
  // can refuse them. The lock's length tells how many guesses were let in: a sixth would have
  // locked it for 60 s, the 30th for 15 minutes; five lock it for 30 s.
  const burst = (email: string, passwords: string[]) =>
    Promise.all(passwords.map((password) => call('POST', '/api/v1/portal/login', { body: { email, password } })));
  const retryAfter = (res: { headers: Headers }) => Number(res.headers.get('retry-after'));

  it('30 wrong passwords at once from 30 addresses: five are tried, the rest refused as locked', async () => {
    const org = await registerTenant('Burst');
    const answers = await burst(org.email, Array<string>(30).fill('Wrong-pass-1'));
    const statuses = answers.map((r) => r.status);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    // Four answered as wrong; the fifth tried is wrong too and locks the account (as one at a time).
    expect(statuses.filter((s) => s === 401)).toHaveLength(4);
    const locked = answers.filter((r) => r.status === 429);
    expect(locked).toHaveLength(26);
    for (const res of locked) {
      expect(res.body.detail).toContain('failed logins');
      expect(retryAfter(res)).toBeGreaterThan(0);
      expect(retryAfter(res)).toBeLessThanOrEqual(30);
    }
    // Afterwards the account is locked for the first lock's length, also for the right password.
    const right = await call('POST', '/api/v1/portal/login', { body: { email: org.email, password: org.password } });
    expect(right.status).toBe(429);
    expect(retryAfter(right)).toBeLessThanOrEqual(30);
  });

  it('the right password among 49 wrong ones at once gets a token only if it was among the five tried', async () => {
    for (let run = 0; run < 3; run++) {
      const org = await registerTenant('Guessed');
      const passwords = Array<string>(49).fill('Wrong-pass-1');
      passwords.splice(run * 20, 0, org.password);
      const answers = await burst(org.email, passwords);
      const statuses = answers.map((r) => r.status);
      expect(statuses.every((s) => s === 200 || s === 401 || s === 429)).toBe(true);
      const right = answers[run * 20]!;
      const tried = statuses.filter((s) => s === 200 || s === 401).length;
      // Every refusal and every lock is the first lock (30 s): no sixth guess was let in.
      for (const res of answers.filter((r) => r.status === 429)) expect(retryAfter(res)).toBeLessThanOrEqual(30);
      if (right.status === 200) {
        // Let in among the first five: its success forgets the guesses before it, so the guesses
        // still arriving start afresh, five at most again (and the fifth locks).
        expect(right.body.access_token).toBeTruthy();
        expect(tried).toBeLessThanOrEqual(9);
      } else {
        // Not among the five: refused like every guess after the fifth, never tried.
        expect(right.status).toBe(429);
        expect(statuses.filter((s) => s === 401)).toHaveLength(4);
        expect(tried).toBeLessThanOrEqual(5);
        const after = await call('POST', '/api/v1/portal/login', {
          body: { email: org.email, password: org.password },
        });
        expect(after.status).toBe(429);
        expect(retryAfter(after)).toBeLessThanOrEqual(30);
      }
    }
  });
});

describe('portal.plans', () => {
  it('lists every plan with its limits, without a credential', async () => {
    const res = await call('GET', '/api/v1/portal/plans');
    expect(res.status).toBe(200);
    expect(res.body.map((p: { plan: string }) => p.plan)).toEqual(['free', 'pro', 'enterprise']);
    expect(res.body[0].limits).toEqual({ requests_per_minute: 100, users: 5, sensors: 25, retention_days: 30 });
    expect(res.body[2].limits.users).toBeNull();
  });
});

describe("a plan's request rate", () => {
  it("a free tenant's 101st call within a minute is 429; other tenants are not affected", async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const org = await registerTenant('Busy', { plan: 'free' });
      const other = await registerTenant('Calm');
      const results = await Promise.all(
        Array.from({ length: 101 }, () => call('GET', '/api/v1/users', { token: org.token })),
      );
      if (new Set(results.map((r) => r.headers.get('x-ratelimit-reset'))).size > 1) continue;
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 200)).toHaveLength(100);
      const limited = results.find((r) => r.status === 429)!;
      expect(limited.headers.get('retry-after')).toBeTruthy();
      expect(limited.headers.get('x-ratelimit-limit')).toBe('100');
      expect((await call('GET', '/api/v1/users', { token: other.token })).status).toBe(200);
      return;
    }
    throw new Error('the rate-limit window turned during both bursts');
  });

  it('the enterprise plan (the platform tenant) has no limit', async () => {
    const res = await call('GET', '/api/v1/tenants', { token: await asAdmin() });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('portal.apiKeys.create', () => {
  it('shows the key once; only a hash is kept', async () => {
    const org = await registerTenant('Keys');
    const res = await call('POST', '/api/v1/portal/api-keys', { token: org.token, body: { name: 'ops console' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'ops console',
      role: 'VIEWER',
      tenant_id: org.tenantId,
      created_by: org.userId,
      expires_at: null,
    });
    expect(res.body.api_key).toMatch(/^ghk_[0-9a-f]{96}[A-Za-z0-9_-]{43}$/);
    expect(res.body.api_key.startsWith(res.body.prefix)).toBe(true);
    const list = await call('GET', '/api/v1/portal/api-keys', { token: org.token });
    expect(list.text).not.toContain(res.body.api_key);
    expect(list.text).not.toContain(res.body.api_key.slice(-43));
    expect(list.body[0]).not.toHaveProperty('api_key');
    expect(list.body[0]).not.toHaveProperty('key_hash');
    const audit = await auditEntriesOf(org.tenantId);
    expect(JSON.stringify(audit)).not.toContain(res.body.api_key.slice(-43));
  });

  it('a request with both a bearer token and a key is refused', async () => {
    const org = await registerTenant('Keys');
    const key = (await call('POST', '/api/v1/portal/api-keys', { token: org.token, body: { name: 'k' } })).body.api_key;
    const both = await call('GET', '/api/v1/users', { token: org.token, apiKey: key });
    expect(both.status).toBe(401);
    expect(both.body.detail).toMatch(/not both/);
  });

  it('a key acts with its role: a VIEWER key reads but cannot write', async () => {
    const org = await registerTenant('Keys');
    const key = (
      await call('POST', '/api/v1/portal/api-keys', { token: org.token, body: { name: 'dash', role: 'VIEWER' } })
    ).body.api_key;
    expect((await call('GET', '/api/v1/users', { apiKey: key })).status).toBe(200);
    expect(
      (await call('POST', '/api/v1/users', { apiKey: key, body: { email: 'k@keys.example', role: 'VIEWER' } })).status,
    ).toBe(403);
  });

  it('no key above its creator, no key minted by a key, no expiry in the past', async () => {
    const org = await registerTenant('Keys');
    const above = await call('POST', '/api/v1/portal/api-keys', {
      token: org.token,
      body: { name: 'x', role: 'SUPER_ADMIN' },
    });
    expect(above.status).toBe(403);
    const adminKey = (
      await call('POST', '/api/v1/portal/api-keys', { token: org.token, body: { name: 'admin', role: 'TENANT_ADMIN' } })
    ).body.api_key;
    const byKey = await call('POST', '/api/v1/portal/api-keys', { apiKey: adminKey, body: { name: 'child' } });
    expect(byKey.status).toBe(403);
    const past = await call('POST', '/api/v1/portal/api-keys', {
      token: org.token,
      body: { name: 'old', expires_at: '2020-01-01T00:00:00.000Z' },
    });
    expect(past.status).toBe(422);
    expect(past.body.detail[0].loc).toEqual(['body', 'expires_at']);
  });

  it('a key stops working when it expires', async () => {
    const org = await registerTenant('Keys');
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const key = (
      await call('POST', '/api/v1/portal/api-keys', {
        token: org.token,
        body: { name: 'short', expires_at: expiresAt },
      })
    ).body.api_key;
    expect((await call('GET', '/api/v1/users', { apiKey: key })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1700));
    expect((await call('GET', '/api/v1/users', { apiKey: key })).status).toBe(401);
  });

  it('a key with an address allowlist works only from those addresses', async () => {
    const org = await registerTenant('Keys');
    const res = await call('POST', '/api/v1/portal/api-keys', {
      token: org.token,
      body: { name: 'site', ip_allowlist: ['198.51.100.7', '2001:db8::/32'] },
    });
    expect(res.status).toBe(201);
    const key = res.body.api_key;
    expect(
      (await call('GET', '/api/v1/users', { apiKey: key, headers: { 'x-forwarded-for': '198.51.100.7' } })).status,
    ).toBe(200);
    expect(
      (await call('GET', '/api/v1/users', { apiKey: key, headers: { 'x-forwarded-for': '2001:db8::1' } })).status,
    ).toBe(200);
    expect(
      (await call('GET', '/api/v1/users', { apiKey: key, headers: { 'x-forwarded-for': '198.51.100.8' } })).status,
    ).toBe(401);
    const bad = await call('POST', '/api/v1/portal/api-keys', {
      token: org.token,
      body: { name: 'bad', ip_allowlist: ['10.0.0.0/33'] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'ip_allowlist', 0]);
  });

  it("a key never acts above its creator's current role", async () => {
    const org = await registerTenant('Keys');
    const admin2 = await createUser(org.token, 'TENANT_ADMIN');
    const key = (
      await call('POST', '/api/v1/portal/api-keys', { token: admin2.token, body: { name: 'k', role: 'TENANT_ADMIN' } })
    ).body.api_key;
    expect((await call('GET', '/api/v1/portal/api-keys', { apiKey: key })).status).toBe(200);
    await call('PATCH', `/api/v1/users/${admin2.userId}`, { token: org.token, body: { role: 'VIEWER' } });
    expect((await call('GET', '/api/v1/portal/api-keys', { apiKey: key })).status).toBe(403);
    expect((await call('GET', '/api/v1/users', { apiKey: key })).status).toBe(200);
  });
});

describe('portal.apiKeys.list', () => {
  it('lists newest first, without secrets; other tenants are 404', async () => {
    const org = await registerTenant('Keys');
    const other = await registerTenant('Else');
    for (const name of ['first', 'second']) {
      await call('POST', '/api/v1/portal/api-keys', { token: org.token, body: { name } });
    }
    const res = await call('GET', '/api/v1/portal/api-keys', { token: org.token });
    expect(res.body.map((k: { name: string }) => k.name)).toEqual(['second', 'first']);
    const cross = await call('GET', '/api/v1/portal/api-keys', {
      token: other.token,
      query: { tenant_id: org.tenantId },
    });
    expect(cross.status).toBe(404);
  });
});

describe('portal.apiKeys.revoke', () => {
  it("revokes once; again, or another tenant's key, is 404", async () => {
    const org = await registerTenant('Keys');
    const other = await registerTenant('Else');
    const key = (await call('POST', '/api/v1/portal/api-keys', { token: org.token, body: { name: 'k' } })).body;
    const cross = await call('DELETE', `/api/v1/portal/api-keys/${key.key_id}`, { token: other.token });
    expect(cross.status).toBe(404);
    expect((await call('GET', '/api/v1/users', { apiKey: key.api_key })).status).toBe(200);
    expect((await call('DELETE', `/api/v1/portal/api-keys/${key.key_id}`, { token: org.token })).status).toBe(204);
    expect((await call('DELETE', `/api/v1/portal/api-keys/${key.key_id}`, { token: org.token })).status).toBe(404);
    const audit = await auditEntriesOf(org.tenantId);
    expect(audit.filter((e) => e.action === 'api_key.revoked')).toHaveLength(1);
  });
});
