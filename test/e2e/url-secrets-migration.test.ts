/**
 * bin/migrate-url-secrets.ts (issue 34, item 5): a feed connector, an HTTP integration and a
 * webhook subscription stored as the code before credentials in URLs were sealed stored them (the
 * URL with its `token` in the clear in the item), and an audit entry of then whose changes hold
 * such a URL. The script, run as an operator runs it: a dry run writes nothing; the run rewrites
 * the three to the shown form, so the API answers them `REDACTED` and no item holds the token,
 * while the poll and the webhook's ping still call the receiver with it and the connector's
 * records are still found; one whose sealed configuration lacks the URL in its item is named and
 * kept; the audit entry is named and left as it is; a second run changes 0.
 * No output names the token.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, TABLE } from '../../shared/db/client.js';
import { auditIndexKeys } from '../../shared/db/audit/index.js';
import * as keys from '../../shared/db/item-keys.js';
import { derivedTimeId, timeOfId } from '../../shared/ids.js';
import { call, registerTenant, type RegisteredTenant } from '../support/api.js';
import { startIndicatorListReceiver, type Receiver } from '../support/receiver.js';

const TOKEN = `tok${Math.random().toString(36).slice(2, 10)}SECRET`;

let receiver: Receiver;
let org: RegisteredTenant;
beforeAll(async () => {
  receiver = await startIndicatorListReceiver();
  org = await registerTenant('UrlMigration');
});
afterAll(() => receiver.close());

/** The receiver's URL with a token, as a tenant gave it before (the code then refused user:password). */
const withToken = (path: string) => `${receiver.url}${path}?format=csv&token=${TOKEN}`;
const shown = (path: string) => `${receiver.url}${path}?format=csv&token=REDACTED`;

/** Sets attributes of an item straight in the table (and removes others), as the code before stored it. */
const storeAsBefore = (key: Record<string, string>, set: Record<string, unknown>, remove: string[]) =>
  db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: key,
      UpdateExpression: [
        `SET ${Object.keys(set)
          .map((_, i) => `#s${i} = :s${i}`)
          .join(', ')}`,
        remove.length > 0 ? `REMOVE ${remove.map((_, i) => `#r${i}`).join(', ')}` : '',
      ].join(' '),
      ExpressionAttributeNames: {
        ...Object.fromEntries(Object.keys(set).map((name, i) => [`#s${i}`, name])),
        ...Object.fromEntries(remove.map((name, i) => [`#r${i}`, name])),
      },
      ExpressionAttributeValues: Object.fromEntries(Object.values(set).map((value, i) => [`:s${i}`, value])),
    }),
  );

const item = async (key: Record<string, string>) =>
  (await db.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item!;

const execFileAsync = promisify(execFile);
/** The script, in its own process, for this tenant only (other test files share the table). */
async function migrate(...flags: string[]): Promise<string> {
  const { stdout, stderr } = await execFileAsync(
    'node_modules/.bin/tsx',
    ['bin/migrate-url-secrets.ts', '--tenant', org.tenantId, ...flags],
    { env: process.env, timeout: 60_000 },
  );
  expect(stderr).toBe('');
  return stdout;
}

const lookup = async () =>
  (await call('GET', '/api/v1/threat-feed/indicators', { token: org.token, query: { ip: '95.215.44.37' } })).body
    .matches as unknown[];

describe('migrate-url-secrets', () => {
  it('rewrites URLs stored with credentials to the shown form and sealed parts, still calls them, and names old audit entries', async () => {
    // Saved now, then stored as before: the URL called in the item, no `source`, no sealed URL parts.
    const feed = await call('POST', '/api/v1/integrations', {
      token: org.token,
      body: { name: 'IOCs', kind: 'feed', config: { feed: 'csv-indicators', url: withToken('/list.csv') } },
    });
    expect(feed.status, feed.text).toBe(201);
    const feedId = feed.body.integration_id as string;
    // Its records, kept under the URL called, as a poll before the upgrade kept them.
    expect((await call('POST', `/api/v1/connectors/${feedId}/poll`, { token: org.token })).body.outcome).toBe('ok');
    const { source: _source, ...connector } = (await item(keys.integration(org.tenantId, feedId))).connector as {
      source?: string;
    };
    const connectorBefore = { ...connector, url: withToken('/list.csv') };
    await storeAsBefore(
      keys.integration(org.tenantId, feedId),
      { endpoint: withToken('/list.csv'), connector: connectorBefore },
      [],
    );
    const http = await call('POST', '/api/v1/integrations', {
      token: org.token,
      body: { name: 'SOC', kind: 'http', config: { url: withToken('/soc') } },
    });
    expect(http.status, http.text).toBe(201);
    const httpId = http.body.integration_id as string;
    await storeAsBefore(keys.integration(org.tenantId, httpId), { endpoint: withToken('/soc') }, []);
    // One whose item names a URL its sealed configuration does not hold: redacting it would lose the token.
    const drift = await call('POST', '/api/v1/integrations', {
      token: org.token,
      body: { name: 'Drift', kind: 'http', config: { url: withToken('/drift') } },
    });
    const driftId = drift.body.integration_id as string;
    await storeAsBefore(keys.integration(org.tenantId, driftId), { endpoint: withToken('/elsewhere') }, []);
    const hook = await call('POST', '/api/v1/webhooks', {
      token: org.token,
      body: { url: withToken('/hook'), event_types: ['*'] },
    });
    expect(hook.status, hook.text).toBe(201);
    const hookId = hook.body.webhook_id as string;
    await storeAsBefore(keys.webhook(org.tenantId, hookId), { url: withToken('/hook') }, ['url_secrets_sealed']);
    // An audit entry of then: unsealed, its changes with the URL as given.
    const logId = derivedTimeId(Date.now() - 3 * 3_600_000, `legacy-${org.tenantId}`, 0);
    const oldEntry = {
      log_id: logId,
      tenant_id: org.tenantId,
      action: 'integration.created',
      resource_type: 'integration',
      resource_id: feedId,
      user_id: org.userId,
    };
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: {
          ...keys.audit(org.tenantId, logId),
          ...auditIndexKeys(oldEntry),
          entity: 'AUDIT',
          ...oldEntry,
          actor_type: 'user',
          api_key_id: null,
          timestamp: new Date(timeOfId(logId)).toISOString(),
          request_id: 'r-legacy',
          source_ip: '192.0.2.1',
          changes: { endpoint: withToken('/list.csv') },
        },
      }),
    );
    const entryBefore = await item(keys.audit(org.tenantId, logId));
    // What the upgrade alone leaves: the token answered.
    expect((await call('GET', `/api/v1/integrations/${feedId}`, { token: org.token })).body.endpoint).toBe(
      withToken('/list.csv'),
    );

    // A dry run says what it would do, and writes nothing.
    const dry = await migrate('--dry-run');
    expect(dry).toContain('would rewrite 1 integrations, 1 connectors, 1 webhooks; 1 left as they are');
    expect(dry).toContain(`left integration ${driftId} (${shown('/elsewhere')}) as it is: its sealed configuration`);
    expect(dry).toContain(`audit entry ${logId} holds a credential`);
    expect((await call('GET', `/api/v1/webhooks/${hookId}`, { token: org.token })).body.url).toBe(withToken('/hook'));

    const run = await migrate();
    expect(run).toContain('rewrote 1 integrations, 1 connectors, 1 webhooks; 1 left as they are; 1 audit entries');
    for (const out of [dry, run]) expect(out).not.toContain(TOKEN);

    // Answered REDACTED; no item holds the token.
    expect((await call('GET', `/api/v1/integrations/${feedId}`, { token: org.token })).body.endpoint).toBe(
      shown('/list.csv'),
    );
    expect((await call('GET', `/api/v1/integrations/${httpId}`, { token: org.token })).body.endpoint).toBe(
      shown('/soc'),
    );
    expect((await call('GET', `/api/v1/webhooks/${hookId}`, { token: org.token })).body.url).toBe(shown('/hook'));
    for (const key of [
      keys.integration(org.tenantId, feedId),
      keys.integration(org.tenantId, httpId),
      keys.webhook(org.tenantId, hookId),
    ])
      expect(JSON.stringify(await item(key))).not.toContain(TOKEN);

    // Still called with it; the connector's records still found where they were kept.
    expect(await lookup()).toHaveLength(1);
    const polled = await call('POST', `/api/v1/connectors/${feedId}/poll`, { token: org.token });
    expect(polled.body.outcome, polled.text).toBe('ok');
    expect(receiver.received.at(-1)!.path).toBe(`/list.csv?format=csv&token=${TOKEN}`);
    const ping = await call('POST', `/api/v1/webhooks/${hookId}/test`, { token: org.token });
    expect(ping.body.delivered, ping.text).toBe(true);
    expect(receiver.received.at(-1)!.path).toBe(`/hook?format=csv&token=${TOKEN}`);

    // The audit entry as it was written (its hour's digest hashes it so), answered REDACTED.
    expect(await item(keys.audit(org.tenantId, logId))).toEqual(entryBefore);
    const entry = await call('GET', `/api/v1/audit-logs/${org.tenantId}/${logId}`, { token: org.token });
    expect(entry.body.changes.endpoint).toBe(shown('/list.csv'));

    const again = await migrate();
    expect(again).toContain('rewrote 0 integrations, 0 connectors, 0 webhooks; 1 left as they are');
    expect((await item(keys.integration(org.tenantId, driftId))).endpoint).toBe(withToken('/elsewhere'));
  });
});
