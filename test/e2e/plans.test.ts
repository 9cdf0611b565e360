/**
 * The tenant plan holds (docs/plans.md): a free tenant meets its sensor limit (402) and the
 * features it lacks (403), each answer naming the plan and the way up; a plan change through the
 * API lifts them on the next call.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, TABLE } from '../../shared/db/client.js';
import { eventItem, eventKey, writeAll } from '../../shared/db/events.js';
import { mentionKeys } from '../../shared/db/mention-keys.js';
import { timeOfId } from '../../shared/ids.js';
import { call, registerTenant, setPlan, type RegisteredTenant } from '../support/api.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { storedEventAt } from '../support/seed.js';
import { PIPELINE_WAIT_MS } from '../support/pipeline.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

async function environmentOf(org: RegisteredTenant): Promise<string> {
  const res = await call('POST', '/api/v1/environments', { token: org.token, body: { name: 'Yard', type: 'port' } });
  expect(res.status).toBe(201);
  return res.body.environment_id as string;
}

/** How many sensors the environment lists (a page of 50; an array, or a page object). */
async function sensorCount(org: RegisteredTenant, environmentId: string): Promise<number> {
  const listed = await call('GET', '/api/v1/sensors', {
    token: org.token,
    query: { tenant_id: org.tenantId, environment_id: environmentId, limit: '50' },
  });
  expect(listed.status).toBe(200);
  return Array.isArray(listed.body) ? listed.body.length : (listed.body.items as unknown[]).length;
}

const addSensor = (org: RegisteredTenant, environmentId: string, n: number) =>
  call('POST', '/api/v1/sensors', {
    token: org.token,
    body: { environment_id: environmentId, name: `Gate ${n}`, type: 'camera', location: { lat: 59.9, lon: 10.7 } },
  });

const subscribe = (org: RegisteredTenant) =>
  call('POST', '/api/v1/webhooks', {
    token: org.token,
    body: { url: `${receiver.url}/hook`, event_types: ['incident.created'] },
  });

describe('the free plan', () => {
  it('allows 25 sensors: the 26th is 402 naming the plan, the limit, the count and the way up; pro lifts it at once', async () => {
    const org = await registerTenant('Sensors', { plan: 'free' });
    const env = await environmentOf(org);
    for (let n = 1; n <= 25; n++) expect((await addSensor(org, env, n)).status).toBe(201);
    const refused = await addSensor(org, env, 26);
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({
      plan: 'free',
      limit: 'sensors',
      allowed: 25,
      count: 25,
      upgrade: { plan: 'pro', route: expect.stringContaining('PATCH /api/v1/tenants/{tenant_id}') },
    });
    expect(refused.body.detail).toMatch(/free plan allows 25 sensors and this tenant has 25; the pro plan allows 500/);
    // Nothing was stored: the list still holds 25.
    expect(await sensorCount(org, env)).toBe(25);

    await setPlan(org.tenantId, 'pro');
    expect((await addSensor(org, env, 26)).status).toBe(201);
  });

  it('holds the sensor limit under parallel creates: of six at once with room for one, one is stored', async () => {
    const org = await registerTenant('Burst', { plan: 'free' });
    const env = await environmentOf(org);
    for (let n = 1; n <= 24; n++) expect((await addSensor(org, env, n)).status).toBe(201);
    const answers = await Promise.all([25, 26, 27, 28, 29, 30].map((n) => addSensor(org, env, n)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 402, 402, 402, 402, 402]);
    expect(await sensorCount(org, env)).toBe(25);
  });

  it('frees room when a sensor is deleted', async () => {
    const org = await registerTenant('Room', { plan: 'free' });
    const env = await environmentOf(org);
    const ids: string[] = [];
    for (let n = 1; n <= 25; n++) ids.push((await addSensor(org, env, n)).body.sensor_id as string);
    expect((await addSensor(org, env, 26)).status).toBe(402);
    expect((await call('DELETE', `/api/v1/sensors/${ids[0]}`, { token: org.token })).status).toBe(204);
    expect((await addSensor(org, env, 26)).status).toBe(201);
  });

  it('has no webhooks: the first is 403 naming the feature and the plan that has it; pro lifts it at once', async () => {
    const org = await registerTenant('Hooks', { plan: 'free' });
    const refused = await subscribe(org);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      plan: 'free',
      feature: 'webhooks',
      upgrade: { plan: 'pro', route: expect.stringContaining('PATCH /api/v1/tenants/{tenant_id}') },
    });
    expect(refused.body.detail).toMatch(/free plan does not include webhooks; the pro plan does/);
    // What the tenant has can still be listed (none here).
    expect((await call('GET', '/api/v1/webhooks', { token: org.token })).status).toBe(200);

    await setPlan(org.tenantId, 'pro');
    expect((await subscribe(org)).status).toBe(201);
  });

  it('has no integrations, analytics or threat libraries (403 each), which pro has', async () => {
    const org = await registerTenant('Paid', { plan: 'free' });
    const tries = () =>
      Promise.all([
        call('GET', '/api/v1/analytics/summary', { token: org.token, query: { tenant_id: org.tenantId } }),
        call('POST', '/api/v1/threat-libraries/seed', { token: org.token, query: { tenant_id: org.tenantId } }),
        call('POST', '/api/v1/integrations', {
          token: org.token,
          body: {
            name: 'SOC',
            kind: 'slack',
            config: { webhook_url: `${receiver.url}/services/T0000/B0000/XXXXsecret1` },
          },
        }),
      ]);
    const refused = await tries();
    expect(refused.map((r) => [r.status, r.body.feature])).toEqual([
      [403, 'analytics'],
      [403, 'threat_libraries'],
      [403, 'integrations'],
    ]);
    await setPlan(org.tenantId, 'pro');
    for (const answer of await tries()) expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  });
});

const DAY_S = 86_400;

/** The TTL (epoch seconds) of a stored event, read from the table. */
async function ttlOf(org: RegisteredTenant, eventId: string): Promise<number | undefined> {
  const out = await db.send(new GetCommand({ TableName: TABLE, Key: eventKey(org.tenantId, eventId) }));
  return out.Item?.expires_at as number | undefined;
}

async function listedIds(org: RegisteredTenant): Promise<string[]> {
  const res = await call('GET', '/api/v1/events', {
    token: org.token,
    query: { tenant_id: org.tenantId, limit: '50' },
  });
  expect(res.status).toBe(200);
  const events = (Array.isArray(res.body) ? res.body : res.body.items) as { event_id: string }[];
  return events.map((e) => e.event_id);
}

describe('retention by plan', () => {
  it("keeps a free tenant's events 30 days: older is not shown, new ones expire by the plan; pro shows it at once and re-stamps", async () => {
    const org = await registerTenant('Kept', { plan: 'free' });
    const environmentId = await environmentOf(org);
    // An event received 40 days ago, stored as ingest stamps it on the free plan (the API takes
    // client ids at most 24 hours old, so the test writes it where ingest would).
    const receivedMs = Date.now() - 40 * DAY_S * 1000;
    const old = storedEventAt(org.tenantId, environmentId, receivedMs, { description: 'Forty days ago' });
    const oldSeconds = Math.floor(receivedMs / 1000);
    await writeAll([eventItem({ event: old, contentHash: 'h', expiresAt: oldSeconds + 31 * DAY_S })]);
    const fresh = await call('POST', '/api/v1/events', {
      token: org.token,
      body: { type: 'motion.detected', environment_id: environmentId },
    });
    expect(fresh.status).toBe(201);
    const freshId = fresh.body.event_id as string;
    const freshSeconds = Math.floor(timeOfId(freshId) / 1000);

    // Free: 30 days (and a day's grace before DynamoDB's TTL may remove it); the old one is not shown.
    expect(await ttlOf(org, freshId)).toBe(freshSeconds + 31 * DAY_S);
    expect(await listedIds(org)).toEqual([freshId]);
    expect((await call('GET', `/api/v1/events/${old.event_id}`, { token: org.token })).status).toBe(404);

    await setPlan(org.tenantId, 'pro');
    // Shown at once: reads go by the plan, not by the TTL.
    expect(await listedIds(org)).toEqual([freshId, old.event_id]);
    expect((await call('GET', `/api/v1/events/${old.event_id}`, { token: org.token })).status).toBe(200);
    // And re-stamped by the plan-change worker: pro keeps 365 days, the tenant's configuration 90.
    await expect
      .poll(() => ttlOf(org, old.event_id), { timeout: PIPELINE_WAIT_MS, interval: 500 })
      .toBe(oldSeconds + 91 * DAY_S);
    expect(await ttlOf(org, freshId)).toBe(freshSeconds + 91 * DAY_S);
  });

  it('correlation shows only the events the plan keeps, as the event routes do', async () => {
    const org = await registerTenant('KeptNear', { plan: 'free' });
    const environmentId = await environmentOf(org);
    const receivedMs = Date.now() - 40 * DAY_S * 1000;
    const at = { lat: 59.91, lon: 10.75 };
    const old = storedEventAt(org.tenantId, environmentId, receivedMs, {
      source: 'sensor',
      location: at,
      description: 'Forty days ago, here',
    });
    await writeAll([
      eventItem({ event: old, contentHash: 'h', expiresAt: Math.floor(receivedMs / 1000) + 31 * DAY_S }),
    ]);
    const near = () =>
      call('GET', '/api/v1/correlation', {
        token: org.token,
        query: { ...at, at: old.occurred_at, radius_km: 1, window_minutes: 30 },
      });
    const anchored = () => call('GET', '/api/v1/correlation', { token: org.token, query: { event_id: old.event_id } });

    const free = await near();
    expect(free.status, free.text).toBe(200);
    expect(free.text).not.toContain(old.event_id);
    expect((await anchored()).status).toBe(404);

    await setPlan(org.tenantId, 'pro');
    const pro = await near();
    expect(pro.status, pro.text).toBe(200);
    expect(pro.text).toContain(old.event_id);
    expect((await anchored()).status).toBe(200);
  });

  it('the threat score and watchlist alerts count only the events the plan keeps; a plan change re-stamps the mention index', async () => {
    const org = await registerTenant('KeptScore', { plan: 'free' });
    const environmentId = await environmentOf(org);
    const receivedMs = Date.now() - 40 * DAY_S * 1000;
    const oldSeconds = Math.floor(receivedMs / 1000);
    const ip = '203.0.113.77';
    const named = storedEventAt(org.tenantId, environmentId, receivedMs, {
      type: 'intrusion.detected',
      payload: { source_ip: ip },
    });
    const alert = storedEventAt(org.tenantId, environmentId, receivedMs + 1, {
      type: 'watchlist.alert',
      payload: {
        entry_id: randomUUID(),
        entity_type: 'ip',
        value: ip,
        label: 'Scanner',
        trigger: 'event',
        subject: `event ${named.event_id}`,
      },
    });
    await writeAll(
      [named, alert].map((event) => eventItem({ event, contentHash: 'h', expiresAt: oldSeconds + 31 * DAY_S })),
    );
    // The stream worker indexes the event's mention with the event's TTL.
    const mentionKey = mentionKeys.mention(org.tenantId, 'ip', ip, named.occurred_at, named.event_id);
    const mentionTtl = async () =>
      (await db.send(new GetCommand({ TableName: TABLE, Key: mentionKey, ConsistentRead: true }))).Item?.expires_at;
    await expect.poll(mentionTtl, { timeout: PIPELINE_WAIT_MS, interval: 500 }).toBe(oldSeconds + 31 * DAY_S);

    const historyOf = async () => {
      const res = await call('GET', '/api/v1/threat-score', {
        token: org.token,
        query: { target: ip, target_type: 'ip' },
      });
      expect(res.status, res.text).toBe(200);
      return String(res.body.factors.history.detail);
    };
    const alertIds = async () => {
      const res = await call('GET', '/api/v1/watchlist/alerts', { token: org.token });
      expect(res.status, res.text).toBe(200);
      return (res.body as { alert_id: string }[]).map((a) => a.alert_id);
    };
    // Free keeps 30 days: the forty-day-old event is no history, its alert not listed.
    expect(await historyOf()).toMatch(/^0 event\(s\)/);
    expect(await alertIds()).toEqual([]);

    await setPlan(org.tenantId, 'pro');
    expect(await historyOf()).toMatch(/^1 event\(s\)/);
    expect(await alertIds()).toEqual([alert.event_id]);
    // The mention expires with its event: re-stamped to pro's (the configuration's 90 days) too.
    await expect.poll(mentionTtl, { timeout: PIPELINE_WAIT_MS, interval: 500 }).toBe(oldSeconds + 91 * DAY_S);
  });
});
