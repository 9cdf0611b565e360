/** The tenant routes end to end: real HTTP against `npm start`'s server, real local AWS parts. */
import { describe, expect, it } from 'vitest';
import { asAdmin, call } from '../support/api.js';
import { auditEntriesOf, seedUser } from '../support/seed.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const unique = (label: string) => `${label} ${Math.random().toString(36).slice(2, 8)}`;

async function newTenant(token: string, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/v1/tenants', { token, body: { name: unique('Acme Security'), ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

describe('tenants.create', () => {
  it('creates a tenant on the free plan, with timestamps, and audits it', async () => {
    const token = await asAdmin();
    const res = await call('POST', '/api/v1/tenants', {
      token,
      body: { name: '  Harbour Watch  ', contact_email: 'ops@harbour.example' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Harbour Watch',
      plan: 'free',
      status: 'active',
      contact_email: 'ops@harbour.example',
    });
    expect(res.body.tenant_id).toMatch(UUID);
    expect(res.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(res.headers.get('x-request-id')).toBeTruthy();

    const audit = await auditEntriesOf(res.body.tenant_id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'tenant.created',
      resource_type: 'tenant',
      resource_id: res.body.tenant_id,
      tenant_id: res.body.tenant_id,
      request_id: res.headers.get('x-request-id'),
    });
    expect(audit[0]!.user_id).toMatch(UUID);
    expect(audit[0]!.source_ip).toBeTruthy();
  });

  it('answers 422 with the location of each problem', async () => {
    const res = await call('POST', '/api/v1/tenants', { token: await asAdmin(), body: { name: '', plan: 'gold' } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ['body', 'name'] }),
        expect.objectContaining({ loc: ['body', 'plan'], type: 'enum' }),
      ]),
    );
  });

  it('answers 400 for malformed JSON and 415 for a body that is not JSON', async () => {
    const token = await asAdmin();
    const bad = await call('POST', '/api/v1/tenants', {
      token,
      rawBody: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ detail: 'The body is not valid JSON' });
    const text = await call('POST', '/api/v1/tenants', {
      token,
      rawBody: 'name=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(typeof text.body.detail).toBe('string');
  });

  it('answers 413 for a body over 1 MB', async () => {
    const res = await call('POST', '/api/v1/tenants', {
      token: await asAdmin(),
      body: { name: 'x'.repeat(1_100_000) },
    });
    expect(res.status).toBe(413);
    expect(typeof res.body.detail).toBe('string');
  });
});

describe('tenants.get', () => {
  it('reads a tenant back', async () => {
    const token = await asAdmin();
    const created = await newTenant(token);
    const res = await call('GET', `/api/v1/tenants/${created.tenant_id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
  });

  it('is 404 for an unknown tenant and 422 for an id that is not a uuid', async () => {
    const token = await asAdmin();
    const missing = await call('GET', '/api/v1/tenants/00000000-0000-4000-8000-000000000000', { token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'Tenant not found' });
    const bad = await call('GET', '/api/v1/tenants/nope', { token });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['path', 'tenant_id']);
  });
});

describe('tenants.update', () => {
  it('changes only the fields given and audits old and new values', async () => {
    const token = await asAdmin();
    const created = await newTenant(token, { contact_email: 'a@example.com' });
    const res = await call('PATCH', `/api/v1/tenants/${created.tenant_id}`, { token, body: { plan: 'pro' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: created.name, plan: 'pro', contact_email: 'a@example.com' });
    expect(res.body.updated_at >= created.updated_at).toBe(true);

    const again = await call('GET', `/api/v1/tenants/${created.tenant_id}`, { token });
    expect(again.body.plan).toBe('pro');

    const audit = await auditEntriesOf(created.tenant_id);
    expect(audit.map((a) => a.action)).toEqual(['tenant.created', 'tenant.updated']);
    expect(audit[1]!.changes).toEqual({ plan: { from: 'free', to: 'pro' } });
  });

  it('is 404 for an unknown tenant and 422 for an empty or unknown field', async () => {
    const token = await asAdmin();
    const missing = await call('PATCH', '/api/v1/tenants/00000000-0000-4000-8000-000000000000', {
      token,
      body: { plan: 'pro' },
    });
    expect(missing.status).toBe(404);
    const created = await newTenant(token);
    const empty = await call('PATCH', `/api/v1/tenants/${created.tenant_id}`, { token, body: {} });
    expect(empty.status).toBe(422);
    const unknown = await call('PATCH', `/api/v1/tenants/${created.tenant_id}`, { token, body: { tenant_id: 'x' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]).toMatchObject({ loc: ['body', 'tenant_id'], type: 'extra_forbidden' });
  });

  it('concurrent updates all land, none lost', async () => {
    const token = await asAdmin();
    const created = await newTenant(token);
    const names = ['One', 'Two', 'Three'];
    const results = await Promise.all(
      names.map((name) => call('PATCH', `/api/v1/tenants/${created.tenant_id}`, { token, body: { name } })),
    );
    for (const r of results) expect([200, 409]).toContain(r.status);
    const audit = await auditEntriesOf(created.tenant_id);
    const updates = audit.filter((a) => a.action === 'tenant.updated');
    expect(updates).toHaveLength(results.filter((r) => r.status === 200).length);
  });
});

describe('tenants.list', () => {
  it('lists tenants oldest first, paged by limit and offset', async () => {
    const token = await asAdmin();
    const a = await newTenant(token);
    const b = await newTenant(token);
    // Every tenant the run made so far (other files register theirs at the same time), page by page.
    const ids: string[] = [];
    for (let offset = 0; ; offset += 200) {
      const page = await call('GET', '/api/v1/tenants', { token, query: { limit: 200, offset } });
      expect(page.status).toBe(200);
      ids.push(...page.body.map((t: { tenant_id: string }) => t.tenant_id));
      if (page.body.length < 200) break;
    }
    expect(ids.indexOf(a.tenant_id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(a.tenant_id)).toBeLessThan(ids.indexOf(b.tenant_id));

    const page = await call('GET', '/api/v1/tenants', { token, query: { limit: 1, offset: ids.indexOf(b.tenant_id) } });
    expect(page.body).toHaveLength(1);
    expect(page.body[0].tenant_id).toBe(b.tenant_id);
  });

  it.each([
    [{ limit: 0 }, 'limit'],
    [{ limit: 201 }, 'limit'],
    [{ offset: -1 }, 'offset'],
  ])('%o is 422 with the contract body', async (query, name) => {
    const res = await call('GET', '/api/v1/tenants', { token: await asAdmin(), query });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [{ loc: ['query', name], msg: expect.any(String), type: expect.any(String) }] });
  });
});

describe('tenants.config.get', () => {
  it('a new tenant has the documented defaults', async () => {
    const token = await asAdmin();
    const created = await newTenant(token);
    const res = await call('GET', `/api/v1/tenants/${created.tenant_id}/config`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      tenant_id: created.tenant_id,
      timezone: 'UTC',
      sla_minutes: { critical: 15, high: 60, medium: 240, low: 1440 },
      incident_threshold: 0.7,
      sensor_heartbeat_timeout_seconds: 300,
    });
    expect(res.body.escalation_policy.levels).toHaveLength(3);
  });

  it('is 404 for an unknown tenant', async () => {
    const res = await call('GET', '/api/v1/tenants/00000000-0000-4000-8000-000000000000/config', {
      token: await asAdmin(),
    });
    expect(res.status).toBe(404);
  });
});

describe('tenants.config.update', () => {
  it('merges nested fields, keeps the rest, and audits the change', async () => {
    const token = await asAdmin();
    const created = await newTenant(token);
    const res = await call('PATCH', `/api/v1/tenants/${created.tenant_id}/config`, {
      token,
      body: { timezone: 'Europe/Oslo', sla_minutes: { critical: 5 } },
    });
    expect(res.status).toBe(200);
    expect(res.body.timezone).toBe('Europe/Oslo');
    expect(res.body.sla_minutes).toEqual({ critical: 5, high: 60, medium: 240, low: 1440 });
    const read = await call('GET', `/api/v1/tenants/${created.tenant_id}/config`, { token });
    expect(read.body).toEqual(res.body);
    const audit = await auditEntriesOf(created.tenant_id);
    expect(audit.at(-1)).toMatchObject({ action: 'tenant_config.updated', resource_type: 'tenant_config' });
    expect(audit.at(-1)!.changes).toMatchObject({ timezone: { from: 'UTC', to: 'Europe/Oslo' } });
  });

  it('refuses an unknown time zone and out-of-range values with 422', async () => {
    const token = await asAdmin();
    const created = await newTenant(token);
    const tz = await call('PATCH', `/api/v1/tenants/${created.tenant_id}/config`, {
      token,
      body: { timezone: 'Mars/Base' },
    });
    expect(tz.status).toBe(422);
    expect(tz.body.detail[0].loc).toEqual(['body', 'timezone']);
    const threshold = await call('PATCH', `/api/v1/tenants/${created.tenant_id}/config`, {
      token,
      body: { incident_threshold: 2 },
    });
    expect(threshold.status).toBe(422);
    expect(threshold.body.detail[0].loc).toEqual(['body', 'incident_threshold']);
    const read = await call('GET', `/api/v1/tenants/${created.tenant_id}/config`, { token });
    expect(read.body.timezone).toBe('UTC');
  });
});

describe('tenants.config.update: integrations in the escalation policy', () => {
  it("a SUPER_ADMIN names that tenant's integrations, not another tenant's (404); an unknown tenant is 404", async () => {
    const token = await asAdmin();
    // On pro: integrations are a pro feature (docs/plans.md), whoever adds them.
    const created = await newTenant(token, { plan: 'pro' });
    const other = await newTenant(token, { plan: 'pro' });
    const add = (tenantId: string) =>
      call('POST', '/api/v1/integrations', {
        token,
        body: { tenant_id: tenantId, name: 'SOC', kind: 'http', config: { url: 'http://127.0.0.1:9/hook' } },
      });
    const own = (await add(created.tenant_id)).body.integration_id as string;
    const foreign = (await add(other.tenant_id)).body.integration_id as string;
    const level = (ids: string[]) => ({
      escalation_policy: { levels: [{ after_minutes: 5, notify_roles: ['OPERATOR'], integration_ids: ids }] },
    });
    const refused = await call('PATCH', `/api/v1/tenants/${created.tenant_id}/config`, {
      token,
      body: level([foreign]),
    });
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ detail: 'Integration not found' });
    const saved = await call('PATCH', `/api/v1/tenants/${created.tenant_id}/config`, { token, body: level([own]) });
    expect(saved.body.escalation_policy.levels[0].integration_ids).toEqual([own]);
    const missing = await call('PATCH', '/api/v1/tenants/00000000-0000-4000-8000-000000000000/config', {
      token,
      body: { timezone: 'UTC' },
    });
    expect(missing.status).toBe(404);
  });
});

describe('tenant routes are SUPER_ADMIN only', () => {
  const routes: [string, string, unknown?][] = [
    ['GET', '/api/v1/tenants'],
    ['POST', '/api/v1/tenants', { name: 'X' }],
    ['GET', '/api/v1/tenants/{id}'],
    ['PATCH', '/api/v1/tenants/{id}', { name: 'Y' }],
    ['GET', '/api/v1/tenants/{id}/config'],
    ['PATCH', '/api/v1/tenants/{id}/config', { timezone: 'UTC' }],
  ];

  it.each(routes)(
    '%s %s is 401 without a credential, with a bad token and with an unknown API key',
    async (method, path, body) => {
      const token = await asAdmin();
      const tenant = await newTenant(token);
      const url = path.replace('{id}', tenant.tenant_id);
      for (const opts of [
        {},
        { token: 'not.a.jwt' },
        { token: `${token.slice(0, -4)}AAAA` },
        { apiKey: 'gh_unknown' },
      ]) {
        const res = await call(method, url, { ...opts, body });
        expect(res.status).toBe(401);
        expect(typeof res.body.detail).toBe('string');
        expect(res.text).not.toContain(tenant.name);
      }
    },
  );

  it.each(routes)('%s %s is 403 for a TENANT_ADMIN, and changes nothing', async (method, path, body) => {
    const admin = await asAdmin();
    const tenant = await newTenant(admin);
    const { token } = await seedUser(tenant.tenant_id, 'TENANT_ADMIN');
    const res = await call(method, path.replace('{id}', tenant.tenant_id), { token, body });
    expect(res.status).toBe(403);
    expect(typeof res.body.detail).toBe('string');
    const after = await call('GET', `/api/v1/tenants/${tenant.tenant_id}`, { token: admin });
    expect(after.body).toEqual(tenant);
  });
});
