/**
 * No secret kept in plain text. A full walk through `npm start` (its own data, debug logging):
 * registration with a password, an API key used, a public report key used, an incident confirmed
 * and escalated (two notifications, each sent with a link minted then) and acknowledged by link,
 * a webhook subscription whose signing secret is rotated, and two integrations (a Slack webhook
 * address, a signed endpoint's secret).
 * Then every secret it saw issued is looked for in every table item, the local event bus's log
 * (what the bus and its archive would keep) and the server's own output: none is there. The
 * links' tokens are in one place only: the file of what people were sent.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient, ScanCommand, type ScanCommandOutput } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PersonNotification } from '../../shared/adapters/notification-sender.js';
import { ADMIN, call, confirmRegistration } from '../support/api.js';
import { npmStart, type NpmStart } from '../support/npm-start.js';

let runtime: NpmStart | undefined;

beforeAll(async () => {
  runtime = await npmStart({ LOG_LEVEL: 'debug', OUTBOUND_ALLOW_LOOPBACK: 'true' });
}, 120_000);

afterAll(async () => {
  await runtime?.stop();
});

async function scanTable(endpoint: string): Promise<string> {
  const client = new DynamoDBClient({
    region: 'us-east-1',
    endpoint,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const items: unknown[] = [];
  let start: ScanCommandOutput['LastEvaluatedKey'];
  do {
    const page = await client.send(new ScanCommand({ TableName: 'gatehouse-local', ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  client.destroy();
  return JSON.stringify(items);
}

const seconds = (s: number) => new Promise((r) => setTimeout(r, s * 1000));

describe('secrets at rest', () => {
  it('no password, API key, report key, acknowledgement token, webhook secret or integration credential is in the table, on the bus or in the log', async () => {
    const server = runtime!.url;
    const tag = Math.random().toString(36).slice(2, 10);
    const email = `secrets-${tag}@example.com`;
    const password = `Secret-${tag}-Pass1`;
    const registered = await call('POST', '/api/v1/portal/register', {
      server,
      body: { email, password, organization_name: `Secrets ${tag}` },
    });
    expect(registered.status).toBe(201);
    await confirmRegistration(email, runtime);
    // Webhooks and integrations are the pro plan's (docs/plans.md): the platform operator upgrades it.
    const admin = (await call('POST', '/api/v1/portal/login', { server, body: ADMIN })).body.access_token as string;
    const upgraded = await call('PATCH', `/api/v1/tenants/${registered.body.tenant_id}`, {
      server,
      token: admin,
      body: { plan: 'pro' },
    });
    expect(upgraded.status, upgraded.text).toBe(200);
    const token = (await call('POST', '/api/v1/portal/login', { server, body: { email, password } })).body
      .access_token as string;

    const apiKey = (
      await call('POST', '/api/v1/portal/api-keys', { server, token, body: { name: 'ops', role: 'OPERATOR' } })
    ).body.api_key as string;
    expect((await call('GET', '/api/v1/events', { server, apiKey })).status).toBe(200);

    const reportKey = (await call('POST', '/api/v1/incidents/public-key', { server, token })).body
      .public_report_key as string;
    expect(
      (
        await call('POST', '/api/v1/incidents/public', {
          server,
          body: { report_key: reportKey, title: 'Smoke at the depot', description: 'Seen from the road' },
        })
      ).status,
    ).toBe(201);

    const incident = (
      await call('POST', '/api/v1/incidents', {
        server,
        token,
        body: { title: 'Fence cut at the north gate', severity: 'critical' },
      })
    ).body;
    expect(
      (await call('PATCH', `/api/v1/incidents/${incident.incident_id}/escalate`, { server, token, body: {} })).status,
    ).toBe(200);

    // Both notifications sent (through the stream, the bus and the sender), each with its own link.
    const sentFile = join(runtime!.dataDir, 'logs', 'notifications.jsonl');
    let sent: PersonNotification[] = [];
    for (let i = 0; i < 100 && sent.length < 2; i++) {
      await seconds(0.1);
      try {
        sent = readFileSync(sentFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as PersonNotification)
          .filter((n) => n.incident_id === incident.incident_id);
      } catch {
        sent = [];
      }
    }
    // Sent in parallel: in no particular order.
    sent.sort((a, b) => a.escalation_level - b.escalation_level);
    expect(sent.map((n) => n.escalation_level)).toEqual([0, 1]);
    const links = sent.map((n) => new URL(n.acknowledge_path, server).searchParams.get('token')!);
    expect(links.every((t) => t.startsWith('ack_'))).toBe(true);
    const ack = await call('POST', sent[1]!.acknowledge_path, { server });
    expect(ack.status).toBe(200);
    expect(ack.body.status).toBe('acknowledged');

    // A webhook signing secret, then its successor: both shown once, kept only sealed.
    const hook = (
      await call('POST', '/api/v1/webhooks', {
        server,
        token,
        body: { url: 'http://127.0.0.1:9/hooks', event_types: ['*'] },
      })
    ).body;
    const rotated = (await call('POST', `/api/v1/webhooks/${hook.webhook_id}/rotate-secret`, { server, token })).body;
    expect([hook.secret, rotated.secret].every((s: string) => s.startsWith('whsec_'))).toBe(true);

    // Integration credentials: a Slack webhook address (its path is the credential) and a signing secret.
    const slackPath = `/services/T${tag}/B${tag}/slackcredential${tag}`;
    expect(
      (
        await call('POST', '/api/v1/integrations', {
          server,
          token,
          body: { name: 'chat', kind: 'slack', config: { webhook_url: `http://127.0.0.1:9${slackPath}` } },
        })
      ).status,
    ).toBe(201);
    const generic = (
      await call('POST', '/api/v1/integrations', {
        server,
        token,
        body: { name: 'siem', kind: 'http', config: { url: 'http://127.0.0.1:9/siem' } },
      })
    ).body;

    const secrets = {
      slackCredential: `slackcredential${tag}`,
      integrationSecret: generic.secret.slice(6),
      password,
      apiKey,
      reportKey,
      firstLink: links[0]!,
      secondLink: links[1]!,
      // The key part alone (without its `whsec_` prefix), as it would appear base64 anywhere.
      webhookSecret: hook.secret.slice(6),
      rotatedWebhookSecret: rotated.secret.slice(6),
    };
    const dynamodb = /DynamoDB Local (http:\/\/\S+)/.exec(runtime!.output())?.[1];
    expect(dynamodb).toBeDefined();
    // Give the stream publisher a moment to have published everything to the bus's log.
    await seconds(2);
    const places = {
      table: await scanTable(dynamodb!),
      bus: readFileSync(join(runtime!.dataDir, 'logs', 'event-bus.jsonl'), 'utf8'),
      log: runtime!.output(),
    };
    expect(places.bus).toContain('incident.notification');
    // The server's own request log lines were captured (debug level: everything it logs).
    expect(places.log).toContain('"message":"request"');
    for (const [place, text] of Object.entries(places)) {
      for (const [name, secret] of Object.entries(secrets))
        expect(text.includes(secret), `${name} in the ${place}`).toBe(false);
    }
    // The one place a link is written in the clear: what people were sent.
    const sentText = readFileSync(sentFile, 'utf8');
    expect(sentText).toContain(secrets.firstLink);
    expect(sentText).toContain(secrets.secondLink);
  }, 120_000);
});
