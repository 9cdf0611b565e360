/** Webhooks: what a subscription may choose, and how each delivery is described. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { call, createUser, registerTenant, type RegisteredTenant } from '../support/api.js';
import { getWebhook } from '../../shared/db/webhooks/subscriptions.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';
import { auditEntriesOf } from '../support/seed.js';
import { startReceiver, type Receiver, type Received } from '../support/receiver.js';

describe('webhooks.events', () => {
  it('lists, without a credential, every bus message a subscription may choose, each described in the OpenAPI webhooks', async () => {
    const res = await call('GET', '/api/v1/webhooks/events');
    expect(res.status).toBe(200);
    const types = res.body as string[];
    expect(types).toEqual(
      expect.arrayContaining([
        'motion.detected',
        'intrusion.detected',
        'incident.created',
        'incident.acknowledged',
        'incident.escalated',
        'incident.sla_breached',
        'incident.resolved',
      ]),
    );
    // The notification request carries no link and is the sender's own business: not offered.
    expect(types).not.toContain('incident.notification');
    expect(new Set(types).size).toBe(types.length);

    const doc = (await call('GET', '/openapi.json')).body;
    // And what a workflow's send_webhook step delivers, which no subscription chooses.
    expect(Object.keys(doc.webhooks).sort()).toEqual([...types, 'workflow.action'].sort());
    expect(types).not.toContain('workflow.action');
    expect(
      doc.webhooks['workflow.action'].post.requestBody.content['application/json'].schema.properties.data.$ref,
    ).toBe('#/components/schemas/WebhookWorkflowActionData');
    const created = doc.webhooks['incident.created'].post;
    expect(created.parameters.map((p: { name: string }) => p.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    const body = created.requestBody.content['application/json'].schema;
    expect(body).toMatchObject({
      required: ['type', 'timestamp', 'data'],
      properties: { type: { const: 'incident.created' }, data: { $ref: '#/components/schemas/WebhookIncidentData' } },
    });
    expect(doc.components.schemas.WebhookIncidentData.properties.incident_id).toBeDefined();
    expect(
      doc.webhooks['motion.detected'].post.requestBody.content['application/json'].schema.properties.data.$ref,
    ).toBe('#/components/schemas/WebhookEventData');
  });
});

/** A receiver on loopback that keeps what it got and answers 500 on /fails. */
let receiver: Receiver;
let receiverUrl: string;
let received: Received[];
beforeAll(async () => {
  receiver = await startReceiver((path) => ({ status: path === '/fails' ? 500 : 200, body: 'ok' }));
  receiverUrl = receiver.url;
  received = receiver.received;
});
afterAll(() => receiver.close());

const subscribe = (org: RegisteredTenant, body: Record<string, unknown>) =>
  call('POST', '/api/v1/webhooks', {
    token: org.token,
    body: { url: `${receiverUrl}/hook`, event_types: ['incident.created'], ...body },
  });

describe('webhooks.create', () => {
  it('shows the secret once and keeps it sealed; the subscription reads back without it, audited', async () => {
    const org = await registerTenant('Hooks');
    const res = await subscribe(org, { description: 'SOC bridge', filters: { min_severity: 'high' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      url: `${receiverUrl}/hook`,
      event_types: ['incident.created'],
      enabled: true,
      filters: { environment_id: null, min_severity: 'high' },
    });
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const read = await call('GET', `/api/v1/webhooks/${res.body.webhook_id}`, { token: org.token });
    expect(read.body).not.toHaveProperty('secret');
    const stored = await getWebhook(systemTenant(org.tenantId), res.body.webhook_id);
    expect(stored!.secret_sealed).toMatch(/^local:v1:/);
    expect(JSON.stringify(stored)).not.toContain(res.body.secret.slice(6));
    const audit = (await auditEntriesOf(org.tenantId)).find((e) => e.action === 'webhook.created');
    expect(audit).toMatchObject({ resource_id: res.body.webhook_id, user_id: org.userId });
    expect(JSON.stringify(audit)).not.toContain(res.body.secret.slice(6));
  });

  it.each([
    ['https://169.254.169.254/latest/meta-data'],
    ['https://10.0.0.1/hook'],
    ['https://[fd00::1]/hook'],
    // Loopback carried in an IPv6 form (issue 34, item 6): refused even where loopback receivers are allowed, as here.
    ['https://[::7f00:1]:47960/x'],
    ['https://[::ffff:127.0.0.1]:47960/x'],
    ['https://[2002:a9fe:a9fe::1]/hook'],
    ['http://hooks.example.com/in'],
    ['not a url at all'],
  ])('refuses %s on body.url, and keeps nothing', async (url) => {
    const org = await registerTenant('HooksBad');
    const res = await call('POST', '/api/v1/webhooks', { token: org.token, body: { url, event_types: ['*'] } });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'url']);
    expect((await call('GET', '/api/v1/webhooks', { token: org.token })).body.total).toBe(0);
  });

  it('says which address an IPv6 form carries when it refuses one', async () => {
    const org = await registerTenant('HooksCarried');
    const res = await call('POST', '/api/v1/webhooks', {
      token: org.token,
      body: { url: 'https://[::7f00:1]:47960/x', event_types: ['*'] },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'url'], type: 'url' });
    expect(res.body.detail[0].msg).toContain('embeds a loopback IPv4 address 127.0.0.1 (IPv4-compatible, ::/96)');
  });

  it('takes only the published types (or *), needs TENANT_ADMIN, and stops at 50 a tenant', async () => {
    const org = await registerTenant('HooksLimits');
    expect((await subscribe(org, { event_types: ['incident.notification'] })).status).toBe(422);
    const operator = await createUser(org.token, 'OPERATOR');
    expect((await subscribe({ ...org, token: operator.token }, {})).status).toBe(403);
    const made = await Promise.all(Array.from({ length: 50 }, () => subscribe(org, { event_types: ['*'] })));
    expect(made.every((r) => r.status === 201)).toBe(true);
    const over = await subscribe(org, {});
    expect(over.status).toBe(409);
    const list = await call('GET', '/api/v1/webhooks', { token: org.token, query: { limit: 10, offset: 45 } });
    expect(list.body).toMatchObject({ total: 50, limit: 10, offset: 45 });
    expect(list.body.items).toHaveLength(5);
    // A deletion frees a place.
    await call('DELETE', `/api/v1/webhooks/${made[0]!.body.webhook_id}`, { token: org.token });
    expect((await subscribe(org, {})).status).toBe(201);
  });
});

describe('webhooks.list', () => {
  it('is WebhookSubscriptionListResponse, oldest first, without secrets', async () => {
    const org = await registerTenant('HooksList');
    const a = (await subscribe(org, {})).body;
    const b = (await subscribe(org, { event_types: ['*'] })).body;
    const res = await call('GET', '/api/v1/webhooks', { token: org.token });
    expect(res.body).toMatchObject({ total: 2, limit: 50, offset: 0 });
    expect(res.body.items.map((w: { webhook_id: string }) => w.webhook_id)).toEqual([a.webhook_id, b.webhook_id]);
    expect(JSON.stringify(res.body)).not.toContain('whsec_');
  });
});

describe('webhooks.get', () => {
  it("another tenant's subscription is 404", async () => {
    const org = await registerTenant('HooksGetA');
    const other = await registerTenant('HooksGetB');
    const mine = (await subscribe(org, {})).body;
    expect((await call('GET', `/api/v1/webhooks/${mine.webhook_id}`, { token: other.token })).status).toBe(404);
  });
});

describe('webhooks.update', () => {
  it('changes the fields given, checks a new URL like a new one, and audits what changed', async () => {
    const org = await registerTenant('HooksPatch');
    const w = (await subscribe(org, {})).body;
    const off = await call('PATCH', `/api/v1/webhooks/${w.webhook_id}`, {
      token: org.token,
      body: { enabled: false, event_types: ['*'] },
    });
    expect(off.body).toMatchObject({ enabled: false, event_types: ['*'], url: `${receiverUrl}/hook` });
    const bad = await call('PATCH', `/api/v1/webhooks/${w.webhook_id}`, {
      token: org.token,
      body: { url: 'https://192.168.0.1/x' },
    });
    expect(bad.status).toBe(422);
    expect((await call('GET', `/api/v1/webhooks/${w.webhook_id}`, { token: org.token })).body.url).toBe(
      `${receiverUrl}/hook`,
    );
    const audit = (await auditEntriesOf(org.tenantId)).find((e) => e.action === 'webhook.updated');
    expect(audit?.changes).toMatchObject({ enabled: { from: true, to: false } });
  });
});

describe('webhooks.delete', () => {
  it('deletes once; again is 404', async () => {
    const org = await registerTenant('HooksDel');
    const w = (await subscribe(org, {})).body;
    expect((await call('DELETE', `/api/v1/webhooks/${w.webhook_id}`, { token: org.token })).status).toBe(204);
    expect((await call('DELETE', `/api/v1/webhooks/${w.webhook_id}`, { token: org.token })).status).toBe(404);
    expect((await auditEntriesOf(org.tenantId)).map((e) => e.action)).toContain('webhook.deleted');
  });
});

const verifies = (secret: string, r: Received) => {
  try {
    new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

describe('webhooks.test', () => {
  it('sends a ping signed per Standard Webhooks that verifies with the secret shown at creation', async () => {
    const org = await registerTenant('HooksPing');
    const w = (await subscribe(org, {})).body;
    const before = received.length;
    const res = await call('POST', `/api/v1/webhooks/${w.webhook_id}/test`, { token: org.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ delivered: true, status_code: 200, error: null });
    const got = received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]!.headers['webhook-id']).toBe(res.body.message_id);
    expect(verifies(w.secret, got[0]!)).toBe(true);
    expect(JSON.parse(got[0]!.body)).toMatchObject({ type: 'webhook.test', data: { webhook_id: w.webhook_id } });
  });

  it("reports a receiver's failure as it was", async () => {
    const org = await registerTenant('HooksPingFail');
    const w = (await subscribe(org, { url: `${receiverUrl}/fails` })).body;
    const res = await call('POST', `/api/v1/webhooks/${w.webhook_id}/test`, { token: org.token });
    expect(res.body).toMatchObject({ delivered: false, status_code: 500 });
  });
});

describe('webhooks.rotateSecret', () => {
  it('shows a new secret once; for 24 hours deliveries carry both signatures, each verifying', async () => {
    const org = await registerTenant('HooksRotate');
    const w = (await subscribe(org, {})).body;
    const rotated = await call('POST', `/api/v1/webhooks/${w.webhook_id}/rotate-secret`, { token: org.token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(w.secret);
    expect(Date.parse(rotated.body.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    const before = received.length;
    await call('POST', `/api/v1/webhooks/${w.webhook_id}/test`, { token: org.token });
    const got = received.slice(before)[0]!;
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifies(rotated.body.secret, got)).toBe(true);
    expect(verifies(w.secret, got)).toBe(true);
    expect((await auditEntriesOf(org.tenantId)).map((e) => e.action)).toContain('webhook.secret_rotated');
  });
});
