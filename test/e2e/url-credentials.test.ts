/**
 * Credentials in a URL a tenant gives (issue 34, item 5): a feed connector's source and a webhook
 * receiver, each with a user name and password and a `token` parameter. They are kept sealed: no
 * answer (the creation, GET, the list, the connector's view, an indicator lookup), no audit entry
 * (as a VIEWER lists and exports them, CSV), no server log line and no table item holds them in
 * the clear, where each shows `REDACTED`; the poll and the webhook's ping still call a real local
 * receiver with the real ones; and a URL sent back as it is shown keeps them.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getIntegration } from '../../shared/db/integrations.js';
import { getWebhook } from '../../shared/db/webhooks/index.js';
import { call, createUser, registerTenant, type RegisteredTenant } from '../support/api.js';
import { startIndicatorListReceiver, type Receiver } from '../support/receiver.js';

const tag = Math.random().toString(36).slice(2, 10);
/** The credentials given: none may appear anywhere but in what the receiver is sent. */
const TOKEN = `tok${tag}SECRET`;
const USER = `user${tag}`;
const PASSWORD = `pw${tag}SECRET`;
const SECRETS = [TOKEN, USER, PASSWORD];

let receiver: Receiver;
let org: RegisteredTenant;

beforeAll(async () => {
  receiver = await startIndicatorListReceiver();
  org = await registerTenant('UrlSecrets');
});
afterAll(() => receiver.close());

/** The receiver's URL with the credentials: `http://user:pw@127.0.0.1:<port><path>?format=csv&token=...`. */
const withCredentials = (path: string) =>
  `${receiver.url.replace('://', `://${USER}:${PASSWORD}@`)}${path}?format=csv&token=${TOKEN}`;
/** The same, as shown. */
const shown = (path: string) =>
  `${receiver.url.replace('://', '://REDACTED:REDACTED@')}${path}?format=csv&token=REDACTED`;

/** No credential in any of the places, by name. */
function expectNoSecret(places: Record<string, string>): void {
  for (const [place, text] of Object.entries(places))
    for (const secret of SECRETS) expect(text.includes(secret), `${secret} in ${place}`).toBe(false);
}

const basic = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;

describe('credentials in URLs', () => {
  it('a feed connector keeps them sealed, shows them REDACTED everywhere, and polls with them', async () => {
    const url = withCredentials('/list.csv');
    const created = await call('POST', '/api/v1/integrations', {
      token: org.token,
      body: { name: 'IOCs', kind: 'feed', config: { feed: 'csv-indicators', url } },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.endpoint).toBe(shown('/list.csv'));
    const id = created.body.integration_id as string;

    const got = await call('GET', `/api/v1/integrations/${id}`, { token: org.token });
    expect(got.body.endpoint).toBe(shown('/list.csv'));
    const listed = await call('GET', '/api/v1/integrations', { token: org.token, query: { tenant_id: org.tenantId } });
    const connectors = await call('GET', '/api/v1/connectors', { token: org.token });
    expect(connectors.body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ connector_id: id, source_url: shown('/list.csv') })]),
    );

    // The poll calls the real URL: the token in its query, the user and password as Basic auth.
    const polled = await call('POST', `/api/v1/connectors/${id}/poll`, { token: org.token });
    expect(polled.body.outcome, polled.text).toBe('ok');
    const request = receiver.received.at(-1)!;
    expect(request.path).toBe(`/list.csv?format=csv&token=${TOKEN}`);
    expect(request.headers.authorization).toBe(basic);
    const lookup = await call('GET', '/api/v1/threat-feed/indicators', {
      token: org.token,
      query: { ip: '95.215.44.37' },
    });
    expect(lookup.body.matches).toHaveLength(1);

    // Sent back as shown, with another interval: the sealed credentials are kept, and still sent.
    const kept = await call('PATCH', `/api/v1/integrations/${id}`, {
      token: org.token,
      body: { config: { feed: 'csv-indicators', url: got.body.endpoint, interval_minutes: 30 } },
    });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.endpoint).toBe(shown('/list.csv'));
    const before = receiver.received.length;
    expect((await call('POST', `/api/v1/connectors/${id}/poll`, { token: org.token })).body.outcome).toBe('ok');
    expect(receiver.received.length).toBe(before + 1);
    expect(receiver.received.at(-1)!.path).toBe(`/list.csv?format=csv&token=${TOKEN}`);
    expect(receiver.received.at(-1)!.headers.authorization).toBe(basic);
    // A placeholder for another host keeps nothing: the credentials never go elsewhere.
    const moved = await call('PATCH', `/api/v1/integrations/${id}`, {
      token: org.token,
      body: { config: { feed: 'csv-indicators', url: got.body.endpoint.replace('127.0.0.1', 'localhost') } },
    });
    expect(moved.status, moved.text).toBe(422);
    expect(moved.body.detail[0].loc).toEqual(['body', 'config', 'url']);

    // The audit trail, as a VIEWER reads it and exports it.
    const viewer = await createUser(org.token, 'VIEWER');
    const audit = await call('GET', `/api/v1/audit-logs/${org.tenantId}`, {
      token: viewer.token,
      query: { resource_type: 'integration' },
    });
    expect(audit.status).toBe(200);
    const entries = audit.body.items as { action: string; changes: Record<string, unknown> }[];
    expect(entries.find((e) => e.action === 'integration.created')!.changes.endpoint).toBe(shown('/list.csv'));
    const exported = await call('GET', `/api/v1/audit-logs/${org.tenantId}/export`, {
      token: viewer.token,
      query: { from: new Date(Date.now() - 3_600_000).toISOString() },
      headers: { accept: 'text/csv' },
    });
    expect(exported.status).toBe(200);
    expect(exported.text).toContain('token=REDACTED');

    // The item as kept: the endpoint and the connector's URL shown, the URL called only sealed.
    const item = (await getIntegration(org.tenantId, id))!;
    expect(item.endpoint).toBe(shown('/list.csv'));
    expect(item.connector!.url).toBe(shown('/list.csv'));
    expect(item.config_sealed).toMatch(/^(kms|local):/);

    expectNoSecret({
      creation: created.text,
      get: got.text,
      list: listed.text,
      connectors: connectors.text,
      poll: polled.text,
      lookup: lookup.text,
      update: kept.text,
      refusal: moved.text,
      audit: audit.text,
      export: exported.text,
      item: JSON.stringify(item),
      log: readFileSync(process.env.LOG_FILE!, 'utf8'),
    });
  });

  it('a webhook receiver keeps them sealed, shows them REDACTED, and is called with them', async () => {
    const created = await call('POST', '/api/v1/webhooks', {
      token: org.token,
      body: { url: withCredentials('/hook'), event_types: ['*'] },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.url).toBe(shown('/hook'));
    const id = created.body.webhook_id as string;

    const ping = await call('POST', `/api/v1/webhooks/${id}/test`, { token: org.token });
    expect(ping.body.delivered, ping.text).toBe(true);
    expect(receiver.received.at(-1)!.path).toBe(`/hook?format=csv&token=${TOKEN}`);
    expect(receiver.received.at(-1)!.headers.authorization).toBe(basic);

    // Sent back as shown with another description: kept, and still called with them.
    const updated = await call('PATCH', `/api/v1/webhooks/${id}`, {
      token: org.token,
      body: { url: created.body.url, description: 'kept' },
    });
    expect(updated.status, updated.text).toBe(200);
    expect((await call('POST', `/api/v1/webhooks/${id}/test`, { token: org.token })).body.delivered).toBe(true);
    expect(receiver.received.at(-1)!.path).toBe(`/hook?format=csv&token=${TOKEN}`);

    const got = await call('GET', `/api/v1/webhooks/${id}`, { token: org.token });
    expect(got.body.url).toBe(shown('/hook'));
    const audit = await call('GET', `/api/v1/audit-logs/${org.tenantId}`, {
      token: org.token,
      query: { resource_type: 'webhook' },
    });
    const item = (await getWebhook(org.tenantId, id))!;
    expect(item.url).toBe(shown('/hook'));
    expect(item.url_secrets_sealed).toMatch(/^(kms|local):/);
    expectNoSecret({
      creation: created.text,
      get: got.text,
      update: updated.text,
      audit: audit.text,
      item: JSON.stringify(item),
    });
  });
});
