/**
 * Webhook deliveries through the whole local pipeline: a change is committed, the stream publishes
 * it to the bus, the rule puts it on the dispatch queue, the dispatcher makes the delivery, the
 * deliverer POSTs it signed to a real receiver on loopback. Then the log, replays and a 410.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { call, registerTenant, type RegisteredTenant } from '../support/api.js';
import { auditEntriesOf } from '../support/seed.js';
import { startReceiver, type Receiver, type Received } from '../support/receiver.js';
import { pipelineDeadline } from '../support/pipeline.js';

/** Answers by path: /gone 410 until told otherwise, everything else 200. */
const answers = new Map<string, number>();
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver((path) => ({ status: answers.get(path) ?? 200, body: 'ok' }));
});
afterAll(() => receiver.close());

async function subscribe(
  org: RegisteredTenant,
  path: string,
  types: string[] = ['incident.created'],
): Promise<{ webhook_id: string; secret: string }> {
  const res = await call('POST', '/api/v1/webhooks', {
    token: org.token,
    body: { url: `${receiver.url}${path}`, event_types: types },
  });
  expect(res.status).toBe(201);
  return res.body;
}

const openIncident = async (org: RegisteredTenant, title = 'Fence cut at the north gate') => {
  const res = await call('POST', '/api/v1/incidents', { token: org.token, body: { title, severity: 'high' } });
  expect(res.status).toBe(201);
  return res.body as { incident_id: string };
};

/** The requests `path` got, once there are `count` (PIPELINE_WAIT_MS at most). */
async function receivedAt(path: string, count = 1): Promise<Received[]> {
  const deadline = pipelineDeadline();
  for (;;) {
    const got = receiver.received.filter((r) => r.path === path);
    if (got.length >= count) return got;
    if (Date.now() > deadline) throw new Error(`${path} received ${got.length} deliveries, not ${count}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The subscription's deliveries once `done` says they are as expected (PIPELINE_WAIT_MS at most). */
async function deliveriesWhen(
  org: RegisteredTenant,
  webhookId: string,
  done: (items: any[]) => boolean,
  query: Record<string, string> = {},
): Promise<any[]> {
  const deadline = pipelineDeadline();
  for (;;) {
    const res = await call('GET', `/api/v1/webhooks/${webhookId}/deliveries`, { token: org.token, query });
    expect(res.status).toBe(200);
    if (done(res.body.items)) return res.body.items;
    if (Date.now() > deadline)
      throw new Error(`deliveries of ${webhookId} did not settle: ${JSON.stringify(res.body.items)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('webhooks.deliveries', () => {
  it('delivers incident.created to a loopback receiver, signed with the secret shown at creation, and logs the attempt', async () => {
    const org = await registerTenant('Deliver');
    const { webhook_id: webhookId, secret } = await subscribe(org, `/created-${org.tenantId}`);
    const incident = await openIncident(org);

    const [got] = await receivedAt(`/created-${org.tenantId}`);
    // Verifies with the reference library and the secret the receiver was given.
    const verified = new Webhook(secret).verify(got!.body, got!.headers as Record<string, string>) as {
      type: string;
      timestamp: string;
      data: Record<string, unknown>;
    };
    expect(verified.type).toBe('incident.created');
    expect(verified.data).toMatchObject({
      incident_id: incident.incident_id,
      tenant_id: org.tenantId,
      title: 'Fence cut at the north gate',
      severity: 'high',
    });
    expect(verified.data).not.toHaveProperty('message_id');
    expect(Number.isNaN(Date.parse(verified.timestamp))).toBe(false);
    expect(got!.headers['content-type']).toBe('application/json');

    const [delivery] = await deliveriesWhen(org, webhookId, (items) => items[0]?.status === 'delivered');
    expect(delivery).toMatchObject({
      webhook_id: webhookId,
      event_type: 'incident.created',
      delivery_id: got!.headers['webhook-id'],
      status: 'delivered',
      next_attempt_at: null,
      failure_reason: null,
    });
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ attempt: 1, status_code: 200, error: null, replay: false }),
    ]);
    expect(JSON.parse(delivery.payload)).toEqual(verified);
  });

  it("carries only the tenant's own messages: a subscriber to everything in another tenant gets none of them", async () => {
    const a = await registerTenant('DeliverA');
    const b = await registerTenant('DeliverB');
    await subscribe(a, `/own-${a.tenantId}`);
    await subscribe(b, `/all-${b.tenantId}`, ['*']);
    await openIncident(a);
    await receivedAt(`/own-${a.tenantId}`);
    // B's own incident arrives at B's receiver: after it, B has seen everything it will of this time.
    const bIncident = await openIncident(b);
    const bGot = await receivedAt(`/all-${b.tenantId}`);
    for (const r of bGot) expect(JSON.parse(r.body).data.tenant_id).toBe(b.tenantId);
    expect(bGot.map((r) => JSON.parse(r.body).data.incident_id)).toContain(bIncident.incident_id);
  });

  it('answers 404 for a subscription of another tenant, and pages newest first', async () => {
    const a = await registerTenant('DeliverPage');
    const b = await registerTenant('DeliverPageB');
    const { webhook_id: webhookId } = await subscribe(a, `/page-${a.tenantId}`);
    expect((await call('GET', `/api/v1/webhooks/${webhookId}/deliveries`, { token: b.token })).status).toBe(404);
    const first = await openIncident(a, 'First');
    await receivedAt(`/page-${a.tenantId}`, 1);
    const second = await openIncident(a, 'Second');
    await receivedAt(`/page-${a.tenantId}`, 2);
    const items = await deliveriesWhen(
      a,
      webhookId,
      (list) => list.length === 2 && list.every((d) => d.status === 'delivered'),
    );
    expect(items.map((d) => JSON.parse(d.payload).data.incident_id)).toEqual([second.incident_id, first.incident_id]);
    const page = await call('GET', `/api/v1/webhooks/${webhookId}/deliveries`, {
      token: a.token,
      query: { limit: '1', offset: '1' },
    });
    expect(page.body).toMatchObject({ limit: 1, offset: 1, next_offset: null });
    expect(page.headers.get('link')).toBeNull();
    const firstPage = await call('GET', `/api/v1/webhooks/${webhookId}/deliveries`, {
      token: a.token,
      query: { limit: '1' },
    });
    expect(firstPage.body).toMatchObject({ limit: 1, offset: 0, next_offset: 1 });
    expect(firstPage.headers.get('link')).toBe(
      `</api/v1/webhooks/${webhookId}/deliveries?limit=1&offset=1>; rel="next"`,
    );
    expect(page.body.items.map((d: { delivery_id: string }) => d.delivery_id)).toEqual([items[1].delivery_id]);
    expect(
      (await call('GET', `/api/v1/webhooks/${webhookId}/deliveries`, { token: a.token, query: { status: 'failed' } }))
        .body.items,
    ).toEqual([]);
  });
});

describe('webhooks.replayDelivery', () => {
  it('sends the delivery again with the same webhook-id, as one more attempt, audited', async () => {
    const org = await registerTenant('Replay');
    const { webhook_id: webhookId, secret } = await subscribe(org, `/replay-${org.tenantId}`);
    await openIncident(org);
    const [first] = await receivedAt(`/replay-${org.tenantId}`);
    const [delivery] = await deliveriesWhen(org, webhookId, (items) => items[0]?.status === 'delivered');

    const res = await call('POST', `/api/v1/webhooks/${webhookId}/deliveries/${delivery.delivery_id}/replay`, {
      token: org.token,
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ delivery_id: delivery.delivery_id, status: 'pending' });
    const [, again] = await receivedAt(`/replay-${org.tenantId}`, 2);
    expect(again!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(again!.body).toBe(first!.body);
    expect(() => new Webhook(secret).verify(again!.body, again!.headers as Record<string, string>)).not.toThrow();

    const [replayed] = await deliveriesWhen(
      org,
      webhookId,
      (items) => items[0]?.attempts.length === 2 && items[0].status === 'delivered',
    );
    expect(replayed.attempts.map((a: { replay: boolean }) => a.replay)).toEqual([false, true]);
    const audit = (await auditEntriesOf(org.tenantId)).find((e) => e.action === 'webhook.delivery_replayed');
    expect(audit).toMatchObject({ resource_id: webhookId, user_id: org.userId });

    const unknown = '0193a2b4-0000-7000-8000-000000000000';
    expect(
      (await call('POST', `/api/v1/webhooks/${webhookId}/deliveries/${unknown}/replay`, { token: org.token })).status,
    ).toBe(404);
  });
});

describe('webhooks.replayFailed', () => {
  it('a 410 turns the subscription off at once; turned on again, the failed delivery is replayed since a time', async () => {
    const org = await registerTenant('Gone');
    const path = `/gone-${org.tenantId}`;
    answers.set(path, 410);
    const since = new Date(Date.now() - 60_000).toISOString();
    const { webhook_id: webhookId } = await subscribe(org, path);
    await openIncident(org);
    await receivedAt(path);

    const [failed] = await deliveriesWhen(org, webhookId, (items) => items[0]?.status === 'failed');
    expect(failed).toMatchObject({ failure_reason: 'gone', attempts: [expect.objectContaining({ status_code: 410 })] });
    const sub = (await call('GET', `/api/v1/webhooks/${webhookId}`, { token: org.token })).body;
    expect(sub).toMatchObject({ enabled: false, disabled_reason: 'gone' });
    const disabled = (await auditEntriesOf(org.tenantId)).find((e) => e.action === 'webhook.disabled');
    expect(disabled).toMatchObject({ resource_id: webhookId, user_id: null });

    // Off: a replay is refused until its owner turns it on again.
    expect(
      (await call('POST', `/api/v1/webhooks/${webhookId}/deliveries/replay`, { token: org.token, body: { since } }))
        .status,
    ).toBe(409);
    answers.set(path, 200);
    const on = await call('PATCH', `/api/v1/webhooks/${webhookId}`, { token: org.token, body: { enabled: true } });
    expect(on.body).toMatchObject({ enabled: true, disabled_reason: null });

    const res = await call('POST', `/api/v1/webhooks/${webhookId}/deliveries/replay`, {
      token: org.token,
      body: { since },
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ replayed: 1, delivery_ids: [failed.delivery_id], has_more: false });
    const [, again] = await receivedAt(path, 2);
    expect(again!.headers['webhook-id']).toBe(failed.delivery_id);
    await deliveriesWhen(org, webhookId, (items) => items[0]?.status === 'delivered');

    // A time too far back, or ahead, names the field.
    const old = await call('POST', `/api/v1/webhooks/${webhookId}/deliveries/replay`, {
      token: org.token,
      body: { since: '2020-01-01T00:00:00Z' },
    });
    expect(old.status).toBe(422);
    expect(old.body.detail[0].loc).toEqual(['body', 'since']);
  });
});
