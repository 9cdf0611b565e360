/**
 * Integrations against a real receiver on loopback: each kind's real test message, write-only
 * credentials (masked, sealed, never answered), checked addresses, and the tenant's own only.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { call, createUser, registerTenant, type RegisteredTenant } from '../support/api.js';
import { getIntegration } from '../../shared/db/integrations.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';
import { auditEntriesOf } from '../support/seed.js';
import { startReceiver, type Receiver, type Received } from '../support/receiver.js';

let receiver: Receiver;
let base: string;
let received: Received[];
beforeAll(async () => {
  receiver = await startReceiver((path) =>
    path.startsWith('/pagerduty')
      ? {
          status: 202,
          headers: { 'content-type': 'application/json' },
          body: '{"status":"success","message":"Event processed"}',
        }
      : { status: path === '/down' ? 503 : 200, body: 'ok' },
  );
  base = receiver.url;
  received = receiver.received;
});
afterAll(() => receiver.close());

const SLACK_PATH = '/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXsecret1';
const ROUTING_KEY = 'R0UT1NGKEY0000000000000000001234';

const add = (org: RegisteredTenant, body: Record<string, unknown>) =>
  call('POST', '/api/v1/integrations', { token: org.token, body: { name: 'SOC channel', ...body } });
const probe = async (org: RegisteredTenant, id: string) => {
  const before = received.length;
  const res = await call('POST', `/api/v1/integrations/${id}/test`, { token: org.token });
  return { res, got: received.slice(before) };
};

describe('integrations.create', () => {
  it('keeps a Slack webhook write-only: masked in every answer, sealed in the table, audited without it', async () => {
    const org = await registerTenant('Integr');
    const res = await add(org, { kind: 'slack', config: { webhook_url: `${base}${SLACK_PATH}` } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: 'slack', enabled: true, endpoint: base, credential_hint: 'ret1' });
    expect(res.body).not.toHaveProperty('secret');
    const everything = JSON.stringify([
      res.body,
      (await call('GET', '/api/v1/integrations', { token: org.token, query: { tenant_id: org.tenantId } })).body,
    ]);
    expect(everything).not.toContain('XXXXXXXXXXXX');
    const stored = await getIntegration(systemTenant(org.tenantId), res.body.integration_id);
    expect(stored!.config_sealed).toMatch(/^local:v1:/);
    expect(JSON.stringify(stored)).not.toContain('XXXXXXXXXXXX');
    expect(JSON.stringify(await auditEntriesOf(org.tenantId))).not.toContain('XXXXXXXXXXXX');
  });

  it('refuses what a kind does not take, what it lacks, and addresses we may not call, on the config field', async () => {
    const org = await registerTenant('IntegrBad');
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'pagerduty', config: {} }, 'routing_key'],
      [{ kind: 'pagerduty', config: { routing_key: 'short' } }, 'routing_key'],
      [{ kind: 'slack', config: { webhook_url: 'https://169.254.169.254/x' } }, 'webhook_url'],
      [{ kind: 'teams', config: { webhook_url: 'https://10.1.2.3/x' } }, 'webhook_url'],
      [{ kind: 'http', config: { url: `${base}/x`, routing_key: ROUTING_KEY } }, 'routing_key'],
      [
        { kind: 'pagerduty', config: { routing_key: ROUTING_KEY, endpoint: 'https://[::ffff:10.0.0.1]/enqueue' } },
        'endpoint',
      ],
      [{ kind: 'http', config: { url: 'https://[::7f00:1]:47960/x' } }, 'url'],
      [{ kind: 'teams', config: { webhook_url: 'https://[64:ff9b::a9fe:a9fe]/x' } }, 'webhook_url'],
    ];
    for (const [body, field] of cases) {
      const res = await add(org, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail[0].loc.at(-1)).toBe(field);
    }
    expect(
      (await call('GET', '/api/v1/integrations', { token: org.token, query: { tenant_id: org.tenantId } })).body,
    ).toEqual([]);
  });
});

describe('integrations.test', () => {
  it('sends each kind its own format: Slack text, a Teams MessageCard, a PagerDuty trigger resolved again, a signed HTTP delivery', async () => {
    const org = await registerTenant('IntegrTest');
    const slack = (await add(org, { kind: 'slack', config: { webhook_url: `${base}${SLACK_PATH}` } })).body;
    const s = await probe(org, slack.integration_id);
    expect(s.res.body).toMatchObject({ reachable: true, status_code: 200, error: null });
    expect(s.got.map((g) => g.path)).toEqual([SLACK_PATH]);
    expect(JSON.parse(s.got[0]!.body)).toEqual({ text: expect.stringMatching(/^Gatehouse test message/) });

    const teams = (await add(org, { kind: 'teams', config: { webhook_url: `${base}/teams/in` } })).body;
    const t = await probe(org, teams.integration_id);
    expect(JSON.parse(t.got[0]!.body)).toMatchObject({
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      summary: 'Gatehouse test message',
    });

    const pd = (
      await add(org, {
        kind: 'pagerduty',
        config: { routing_key: ROUTING_KEY, endpoint: `${base}/pagerduty/v2/enqueue` },
      })
    ).body;
    expect(pd).toMatchObject({ endpoint: `${base}/pagerduty/v2/enqueue`, credential_hint: '1234' });
    const p = await probe(org, pd.integration_id);
    expect(p.res.body).toMatchObject({ reachable: true, status_code: 202 });
    const [trigger, resolve] = p.got.map((g) => JSON.parse(g.body));
    expect(trigger).toMatchObject({
      routing_key: ROUTING_KEY,
      event_action: 'trigger',
      payload: { source: 'gatehouse', severity: 'info' },
    });
    expect(resolve).toEqual({ routing_key: ROUTING_KEY, event_action: 'resolve', dedup_key: trigger.dedup_key });

    const http = (await add(org, { kind: 'http', config: { url: `${base}/generic` } })).body;
    expect(http.secret).toMatch(/^whsec_/);
    expect(
      (await call('GET', `/api/v1/integrations/${http.integration_id}`, { token: org.token })).body,
    ).not.toHaveProperty('secret');
    const h = await probe(org, http.integration_id);
    expect(() =>
      new Webhook(http.secret).verify(h.got[0]!.body, h.got[0]!.headers as Record<string, string>),
    ).not.toThrow();
    expect(JSON.parse(h.got[0]!.body)).toMatchObject({
      type: 'integration.test',
      data: { integration_id: http.integration_id },
    });
  });

  it('reports an endpoint that is down as it answered', async () => {
    const org = await registerTenant('IntegrDown');
    const i = (await add(org, { kind: 'slack', config: { webhook_url: `${base}/down` } })).body;
    expect((await probe(org, i.integration_id)).res.body).toMatchObject({ reachable: false, status_code: 503 });
  });
});

describe('integrations.list', () => {
  it('takes the tenant from the credential, lists oldest first, and another tenant is 404', async () => {
    const org = await registerTenant('IntegrList');
    const other = await registerTenant('IntegrListOther');
    const a = (await add(org, { kind: 'slack', config: { webhook_url: `${base}/a` } })).body;
    const b = (await add(org, { kind: 'teams', config: { webhook_url: `${base}/b` } })).body;
    const own = await call('GET', '/api/v1/integrations', { token: org.token });
    const list = await call('GET', '/api/v1/integrations', { token: org.token, query: { tenant_id: org.tenantId } });
    expect(own.body).toEqual(list.body);
    expect(list.body.map((i: { integration_id: string }) => i.integration_id)).toEqual([
      a.integration_id,
      b.integration_id,
    ]);
    expect(
      (await call('GET', '/api/v1/integrations', { token: org.token, query: { tenant_id: other.tenantId } })).status,
    ).toBe(404);
  });
});

describe('integrations.get', () => {
  it("another tenant's integration is 404; an OPERATOR may not read them", async () => {
    const org = await registerTenant('IntegrGet');
    const other = await registerTenant('IntegrGetOther');
    const i = (await add(org, { kind: 'slack', config: { webhook_url: `${base}/a` } })).body;
    expect((await call('GET', `/api/v1/integrations/${i.integration_id}`, { token: other.token })).status).toBe(404);
    const operator = await createUser(org.token, 'OPERATOR');
    expect((await call('GET', `/api/v1/integrations/${i.integration_id}`, { token: operator.token })).status).toBe(403);
  });
});

describe('integrations.update', () => {
  it('renames and switches without touching the credential; a new config replaces it, audited without it', async () => {
    const org = await registerTenant('IntegrPatch');
    const i = (await add(org, { kind: 'slack', config: { webhook_url: `${base}/old-hook` } })).body;
    const renamed = await call('PATCH', `/api/v1/integrations/${i.integration_id}`, {
      token: org.token,
      body: { name: 'Night shift', enabled: false },
    });
    expect(renamed.body).toMatchObject({ name: 'Night shift', enabled: false, credential_hint: 'hook' });
    const replaced = await call('PATCH', `/api/v1/integrations/${i.integration_id}`, {
      token: org.token,
      body: { config: { webhook_url: `${base}/new-path` } },
    });
    expect(replaced.body.credential_hint).toBe('path');
    const p = await probe(org, i.integration_id);
    expect(p.got.map((g) => g.path)).toEqual(['/new-path']);
    const audit = (await auditEntriesOf(org.tenantId)).filter((e) => e.action === 'integration.updated');
    expect(audit).toHaveLength(2);
    expect(JSON.stringify(audit)).not.toContain('new-path');
    expect(
      (
        await call('PATCH', `/api/v1/integrations/${i.integration_id}`, {
          token: org.token,
          body: { config: { routing_key: ROUTING_KEY } },
        })
      ).status,
    ).toBe(422);
  });
});

describe('integrations.delete', () => {
  it('deletes once; again is 404', async () => {
    const org = await registerTenant('IntegrDel');
    const i = (await add(org, { kind: 'teams', config: { webhook_url: `${base}/x` } })).body;
    expect((await call('DELETE', `/api/v1/integrations/${i.integration_id}`, { token: org.token })).status).toBe(204);
    expect((await call('DELETE', `/api/v1/integrations/${i.integration_id}`, { token: org.token })).status).toBe(404);
  });
});

describe('integrations.test by email', () => {
  it('hands the test message to the mail service: under npm start it lands in the local mail folder, a real message', async () => {
    const org = await registerTenant('IntegrMail');
    const i = (await add(org, { kind: 'email', config: { to: ['soc@harbour.example', 'duty@harbour.example'] } })).body;
    expect(i).toMatchObject({
      kind: 'email',
      endpoint: 'mailto:soc@harbour.example,duty@harbour.example',
      credential_hint: null,
    });
    const dir = inject('localEnv').LOCAL_MAIL_DIR!;
    const before = new Set(existsSync(dir) ? readdirSync(dir) : []);
    const res = await call('POST', `/api/v1/integrations/${i.integration_id}/test`, { token: org.token });
    expect(res.body).toMatchObject({ reachable: true, status_code: null, error: null });
    const added = readdirSync(dir).filter((f) => !before.has(f));
    const mails = await Promise.all(added.map((f) => simpleParser(readFileSync(join(dir, f)))));
    const mine = mails.filter((m) => (m.text ?? '').includes(i.integration_id));
    expect(mine).toHaveLength(1);
    expect(mine[0]!.subject).toBe('Gatehouse test message');
    expect(
      (Array.isArray(mine[0]!.to) ? mine[0]!.to : [mine[0]!.to]).flatMap((a) => a!.value.map((v) => v.address)),
    ).toEqual(['soc@harbour.example', 'duty@harbour.example']);
    expect(mine[0]!.text).toMatch(/^Gatehouse test message: this integration can reach you/);
  });

  it('refuses an email integration without recipients, or with an address that is none', async () => {
    const org = await registerTenant('IntegrMailBad');
    expect((await add(org, { kind: 'email', config: {} })).body.detail[0].loc).toEqual(['body', 'config', 'to']);
    expect((await add(org, { kind: 'email', config: { to: ['not an address'] } })).status).toBe(422);
  });
});
