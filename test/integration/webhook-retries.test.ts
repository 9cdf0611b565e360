/**
 * The retry schedule, exhaustion to the dead-letter queue and the 5-day auto-disable, on a fake
 * clock: the real dispatcher and deliverer handlers, run by the local queue runner over local
 * queues on that clock, against DynamoDB Local, the local secret box and SMTP server, and a real
 * receiver on loopback. Subscriptions and the log are read through the running API.
 *
 * The bus message is put on this file's own dispatch queue by the test (as the rule would), so the
 * running stack's pipeline, which has its own queues, never sees these tenants' messages.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from '../../shared/db/client.js';
import * as keys from '../../shared/db/item-keys.js';
import { RETRY_SCHEDULE_MS } from '../../shared/domain/webhooks/delivery-policy.js';
import type { LocalQueues } from '../../shared/local/queue.js';
import type { QueueWorkers } from '../../shared/local/queue-workers.js';
import { call, registerTenant, type RegisteredTenant } from '../support/api.js';
import { auditEntriesOf, outboxOf } from '../support/seed.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { incidentCreatedOnBus, startWebhookPipeline } from '../support/webhook-pipeline.js';

const start = Date.now();
let nowMs = start;
const clock = () => nowMs;
let queues: LocalQueues;
let workers: QueueWorkers;
/** How the receiver answers each path: a list of statuses, the last repeated. */
const script = new Map<string, number[]>();
let receiver: Receiver;

beforeAll(async () => {
  ({ queues, workers } = await startWebhookPipeline(clock));
  receiver = await startReceiver((path) => {
    const statuses = script.get(path) ?? [200];
    const status = statuses.length > 1 ? statuses.shift()! : statuses[0]!;
    return { status, body: status === 200 ? 'ok' : 'nope' };
  });
});
afterEach(() => workers.drain());
afterAll(async () => {
  await workers.stop();
  await receiver.close();
});

async function subscribe(org: RegisteredTenant, path: string): Promise<string> {
  const res = await call('POST', '/api/v1/webhooks', {
    token: org.token,
    body: { url: `${receiver.url}${path}`, event_types: ['incident.created'] },
  });
  expect(res.status).toBe(201);
  return res.body.webhook_id as string;
}

/** Puts an `incident.created` of the tenant on the dispatch queue, as the bus rule would, now. */
async function publish(org: RegisteredTenant): Promise<void> {
  await queues.send('webhook-dispatch', [incidentCreatedOnBus(org.tenantId, nowMs)]);
}

/** Moves the clock and runs what became due. */
async function advance(ms: number): Promise<void> {
  nowMs += ms;
  await workers.drain();
}

const deliveries = async (org: RegisteredTenant, webhookId: string) =>
  (await call('GET', `/api/v1/webhooks/${webhookId}/deliveries`, { token: org.token })).body.items as any[];
const hits = (path: string) => receiver.received.filter((r) => r.path === path);

describe('webhook retries on a fake clock', () => {
  it('a receiver that fails three times and then answers 200 ends with one success and four attempts, on the schedule', async () => {
    const org = await registerTenant('Retry');
    const path = `/flaky-${org.tenantId}`;
    script.set(path, [500, 503, 500, 200]);
    const webhookId = await subscribe(org, path);
    const t0 = nowMs;
    await publish(org);
    await workers.drain();
    expect(hits(path)).toHaveLength(1);
    const [pending] = await deliveries(org, webhookId);
    expect(pending).toMatchObject({ status: 'pending', next_attempt_at: new Date(t0 + 5_000).toISOString() });

    // Not before its time.
    await advance(4_000);
    expect(hits(path)).toHaveLength(1);
    await advance(1_000);
    expect(hits(path)).toHaveLength(2);
    await advance(300_000);
    expect(hits(path)).toHaveLength(3);
    // The subscription is failing since the first failure.
    expect((await call('GET', `/api/v1/webhooks/${webhookId}`, { token: org.token })).body.failing_since).toBe(
      new Date(t0).toISOString(),
    );
    await advance(1_800_000);
    expect(hits(path)).toHaveLength(4);
    await advance(24 * 3_600_000);
    expect(hits(path)).toHaveLength(4);

    const [done] = await deliveries(org, webhookId);
    expect(done.status).toBe('delivered');
    expect(done.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 503, 500, 200]);
    expect(done.attempts.map((a: { at: string }) => Date.parse(a.at) - t0)).toEqual([0, 5_000, 305_000, 2_105_000]);
    // One webhook-id throughout, so the receiver could tell the attempts were one message.
    expect(new Set(hits(path).map((h) => h.headers['webhook-id']))).toEqual(new Set([done.delivery_id]));
    // A success ends the failing streak.
    expect((await call('GET', `/api/v1/webhooks/${webhookId}`, { token: org.token })).body.failing_since).toBeNull();
  });

  it('after eight failed attempts the delivery fails, waits in the dead-letter queue, and webhook.delivery_exhausted is announced', async () => {
    const org = await registerTenant('Exhaust');
    const path = `/down-${org.tenantId}`;
    script.set(path, [502]);
    const webhookId = await subscribe(org, path);
    await publish(org);
    await workers.drain();
    for (const step of RETRY_SCHEDULE_MS.slice(1)) await advance(step);
    expect(hits(path)).toHaveLength(8);
    await advance(48 * 3_600_000);
    expect(hits(path)).toHaveLength(8);

    const [failed] = await deliveries(org, webhookId);
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'exhausted', next_attempt_at: null });
    expect(failed.attempts).toHaveLength(8);
    const dead = queues.messages('webhook-deliveries:dead-letters').map((m) => JSON.parse(m.body));
    expect(dead).toContainEqual(
      expect.objectContaining({
        webhook_id: webhookId,
        delivery_id: failed.delivery_id,
        reason: 'exhausted',
        attempts: 8,
        last_status_code: 502,
      }),
    );
    expect(queues.messages('webhook-deliveries').filter((m) => JSON.parse(m.body).webhook_id === webhookId)).toEqual(
      [],
    );
    const announced = (await outboxOf(org.tenantId)).filter((m) => m.detail_type === 'webhook.delivery_exhausted');
    expect(announced).toEqual([
      expect.objectContaining({
        detail: expect.objectContaining({ webhook_id: webhookId, delivery_id: failed.delivery_id, attempts: 8 }),
      }),
    ]);
    // Failing for about 28 hours: still on.
    expect((await call('GET', `/api/v1/webhooks/${webhookId}`, { token: org.token })).body.enabled).toBe(true);
  });

  it('a subscription whose every attempt failed for 5 days is turned off, audited, announced, and its owner emailed', async () => {
    const org = await registerTenant('Failing');
    const recipient = `soc-${org.tenantId.slice(0, 8)}@failing.example`;
    expect(
      (
        await call('PATCH', '/api/v1/portal/settings', {
          token: org.token,
          body: { notifications: { email_recipients: [recipient] } },
        })
      ).status,
    ).toBe(200);
    const path = `/dead-${org.tenantId}`;
    script.set(path, [500]);
    const webhookId = await subscribe(org, path);
    const t0 = nowMs;
    // A message a day for four days: each fails through its schedule (about 28 hours).
    for (let day = 0; day < 4; day++) {
      await publish(org);
      await workers.drain();
      for (const step of RETRY_SCHEDULE_MS.slice(1)) await advance(step);
      nowMs = t0 + (day + 1) * 24 * 3_600_000;
    }
    expect((await call('GET', `/api/v1/webhooks/${webhookId}`, { token: org.token })).body).toMatchObject({
      enabled: true,
      failing_since: new Date(t0).toISOString(),
    });
    // Five days after the first failure, the next one turns it off.
    nowMs = t0 + 5 * 24 * 3_600_000;
    await publish(org);
    await workers.drain();
    const sub = (await call('GET', `/api/v1/webhooks/${webhookId}`, { token: org.token })).body;
    expect(sub).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    const [latest] = await deliveries(org, webhookId);
    expect(latest).toMatchObject({ status: 'failed', failure_reason: 'failing' });
    // Off: the next message is not attempted.
    const before = hits(path).length;
    await publish(org);
    await workers.drain();
    expect(hits(path)).toHaveLength(before);

    expect((await auditEntriesOf(org.tenantId)).find((e) => e.action === 'webhook.disabled')).toMatchObject({
      resource_id: webhookId,
      user_id: null,
    });
    expect((await outboxOf(org.tenantId)).find((m) => m.detail_type === 'webhook.disabled')?.detail).toMatchObject({
      webhook_id: webhookId,
      reason: 'failing',
    });
    const mailDir = inject('localEnv').LOCAL_MAIL_DIR!;
    const mails = readdirSync(mailDir)
      .map((f) => readFileSync(join(mailDir, f), 'utf8'))
      .filter((m) => m.includes(recipient));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(webhookId);
    expect(mails[0]).toMatch(/Subject: Gatehouse turned off a webhook subscription/);
  });

  it('a 410 turns the subscription off at the first attempt, with no retry', async () => {
    const org = await registerTenant('Gone410');
    const path = `/gone-${org.tenantId}`;
    script.set(path, [410]);
    const webhookId = await subscribe(org, path);
    await publish(org);
    await workers.drain();
    await advance(3_600_000);
    expect(hits(path)).toHaveLength(1);
    expect((await call('GET', `/api/v1/webhooks/${webhookId}`, { token: org.token })).body).toMatchObject({
      enabled: false,
      disabled_reason: 'gone',
    });
    expect((await deliveries(org, webhookId))[0]).toMatchObject({ status: 'failed', failure_reason: 'gone' });
  });

  it('an address that turned private since it was saved is refused at delivery, and retried as a failure', async () => {
    const org = await registerTenant('Rebind');
    const webhookId = await subscribe(org, `/rebind-${org.tenantId}`);
    // As if its name resolved to the metadata service now: the stored address is what is called.
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.webhook(org.tenantId, webhookId),
        UpdateExpression: 'SET #url = :url',
        ExpressionAttributeNames: { '#url': 'url' },
        ExpressionAttributeValues: { ':url': 'http://169.254.169.254/latest/meta-data' },
      }),
    );
    await publish(org);
    await workers.drain();
    const [delivery] = await deliveries(org, webhookId);
    expect(delivery).toMatchObject({
      status: 'pending',
      attempts: [expect.objectContaining({ status_code: null, error: expect.stringMatching(/^refused/) })],
    });
  });

  it('a redelivered bus message makes no second delivery', async () => {
    const org = await registerTenant('Redeliver');
    const path = `/once-${org.tenantId}`;
    const webhookId = await subscribe(org, path);
    await publish(org);
    const [message] = queues.messages('webhook-dispatch').slice(-1);
    await workers.drain();
    // As SQS or EventBridge may hand it over again, later.
    await queues.send('webhook-dispatch', [{ body: message!.body }]);
    await workers.drain();
    expect(hits(path)).toHaveLength(1);
    expect(await deliveries(org, webhookId)).toHaveLength(1);
  });
});
