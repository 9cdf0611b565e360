/** Event ingest, reading, triage and manual reports end to end. */
import { v7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import {
  asAdmin,
  call,
  createUser,
  registerTenant,
  type RegisteredTenant,
  type RegisterOptions,
} from '../support/api.js';
import { listEvents } from '../../shared/db/events.js';

interface Site {
  org: RegisteredTenant;
  environmentId: string;
  zoneId: string;
  sensorId: string;
}

/** A tenant with a port, a level-5 zone (a circle of 200 m) and a camera inside it. */
async function newSite(label = 'Events', options: RegisterOptions = {}): Promise<Site> {
  const org = await registerTenant(label, options);
  const env = (
    await call('POST', '/api/v1/environments', { token: org.token, body: { name: 'Harbour', type: 'port' } })
  ).body;
  const zone = (
    await call('POST', '/api/v1/zones', {
      token: org.token,
      body: {
        environment_id: env.environment_id,
        name: 'Fuel depot',
        security_level: 5,
        geofence: { type: 'Circle', center: [10.75, 59.91], radius_m: 200 },
      },
    })
  ).body;
  const sensor = (
    await call('POST', '/api/v1/sensors', {
      token: org.token,
      body: {
        environment_id: env.environment_id,
        name: 'Depot camera',
        type: 'camera',
        location: { lat: 59.9101, lon: 10.7501 },
      },
    })
  ).body;
  return { org, environmentId: env.environment_id, zoneId: zone.zone_id, sensorId: sensor.sensor_id };
}

const inside = { lat: 59.9105, lon: 10.7502 };
const outside = { lat: 59.95, lon: 10.8 };

describe('events.create', () => {
  it('stores a new event unprocessed, matched against the zones and scored with its factors', async () => {
    const site = await newSite();
    const res = await call('POST', '/api/v1/events', {
      token: site.org.token,
      body: {
        type: 'perimeter.breach',
        environment_id: site.environmentId,
        location: inside,
        source: 'sensor',
        payload: { fence: 'north' },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: 'perimeter.breach',
      source: 'sensor',
      tenant_id: site.org.tenantId,
      processed: false,
      matched_zone_ids: [site.zoneId],
      payload: { fence: 'north' },
    });
    expect(res.body.threat_score).toBeGreaterThan(0.5);
    expect(res.body.threat_factors.zone).toEqual({ value: 1, weight: 0.25 });
    expect(res.body.threat_factors.type).toEqual({ value: 0.85, weight: 0.35 });
  });

  it("takes the sensor's environment and location, and a report marks the sensor alive", async () => {
    const site = await newSite();
    const res = await call('POST', '/api/v1/events', {
      token: site.org.token,
      body: { type: 'motion.detected', sensor_id: site.sensorId },
    });
    expect(res.body).toMatchObject({
      environment_id: site.environmentId,
      location: { lat: 59.9101, lon: 10.7501 },
      matched_zone_ids: [site.zoneId],
    });
    expect(res.body.threat_factors.sensor_health.value).toBe(1);
    const sensor = await call('GET', `/api/v1/sensors/${site.sensorId}`, { token: site.org.token });
    expect(sensor.body.health).toBe('online');
  });

  it('a sensor.heartbeat event moves the sensor last-seen time', async () => {
    const site = await newSite();
    const at = new Date(Date.now() - 10_000).toISOString();
    await call('POST', '/api/v1/events', {
      token: site.org.token,
      body: { type: 'sensor.heartbeat', sensor_id: site.sensorId, occurred_at: at },
    });
    const sensor = await call('GET', `/api/v1/sensors/${site.sensorId}`, { token: site.org.token });
    expect(sensor.body.last_seen_at).toBe(at);
  });

  it('another tenant referenced environment or sensor is 404', async () => {
    const a = await newSite('A');
    const b = await newSite('B');
    const env = await call('POST', '/api/v1/events', {
      token: b.org.token,
      body: { type: 'motion.detected', environment_id: a.environmentId },
    });
    expect(env.status).toBe(404);
    expect(env.body).toEqual({ detail: 'Environment not found' });
    const sensor = await call('POST', '/api/v1/events', {
      token: b.org.token,
      body: { type: 'motion.detected', sensor_id: a.sensorId },
    });
    expect(sensor.body).toEqual({ detail: 'Sensor not found' });
  });

  it('checks the payload of types whose payload is fixed', async () => {
    const site = await newSite();
    const res = await call('POST', '/api/v1/events', {
      token: site.org.token,
      body: { type: 'ais.position', payload: { mmsi: 'abc' } },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'payload', 'mmsi']);
    const ok = await call('POST', '/api/v1/events', {
      token: site.org.token,
      body: { type: 'ais.position', payload: { mmsi: '257123456', sog_knots: 4.2 } },
    });
    expect(ok.status).toBe(201);
  });

  it('an Idempotency-Key makes a retry answer the first answer; another body with it is 409', async () => {
    const site = await newSite();
    const body = { type: 'door.forced', environment_id: site.environmentId };
    const headers = { 'idempotency-key': `door-${Date.now()}` };
    const first = await call('POST', '/api/v1/events', { token: site.org.token, body, headers });
    const again = await call('POST', '/api/v1/events', { token: site.org.token, body, headers });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await call('POST', '/api/v1/events', {
      token: site.org.token,
      body: { ...body, type: 'glass.break' },
      headers,
    });
    expect(other.status).toBe(409);
    const list = await call('GET', '/api/v1/events', { token: site.org.token, query: { type: 'door.forced' } });
    expect(list.body).toHaveLength(1);
  });

  it('a client event id stores the event once; the same id with other content is 409', async () => {
    const site = await newSite();
    const eventId = v7();
    const body = { event_id: eventId, type: 'access.denied', environment_id: site.environmentId };
    const first = await call('POST', '/api/v1/events', { token: site.org.token, body });
    const retry = await call('POST', '/api/v1/events', { token: site.org.token, body });
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    const clash = await call('POST', '/api/v1/events', {
      token: site.org.token,
      body: { ...body, type: 'door.forced' },
    });
    expect(clash.status).toBe(409);
    const notV7 = await call('POST', '/api/v1/events', {
      token: site.org.token,
      body: { ...body, event_id: '4b1f4b5e-1c8e-4d1e-9a56-1f0b0c4f1a11' },
    });
    expect(notV7.status).toBe(422);
    // An id made an hour ago is a late retry, still taken; one older than a day, or ahead of time, is not.
    const lateRetry = await call('POST', '/api/v1/events', {
      token: site.org.token,
      body: { ...body, event_id: v7({ msecs: Date.now() - 3600_000 }) },
    });
    expect(lateRetry.status).toBe(201);
    for (const msecs of [Date.now() - 25 * 3600_000, Date.now() + 5 * 60_000]) {
      const stale = await call('POST', '/api/v1/events', {
        token: site.org.token,
        body: { ...body, event_id: v7({ msecs }) },
      });
      expect(stale.status).toBe(422);
      expect(stale.body.detail[0]).toMatchObject({ loc: ['body', 'event_id'], type: 'stale_id' });
    }
  });

  it('a viewer cannot ingest', async () => {
    const site = await newSite();
    const viewer = await createUser(site.org.token, 'VIEWER');
    expect(
      (await call('POST', '/api/v1/events', { token: viewer.token, body: { type: 'motion.detected' } })).status,
    ).toBe(403);
  });
});

describe("ingest and the plan's request rate", () => {
  it('ingest counts itself before it writes: past the rate it is 429 and stores nothing, and a refused ingest counted', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      // A free tenant (100 a minute): the site costs 3 calls, an ingest refused for its unknown
      // sensor 1 and 96 reads the rest, so the next ingest is the 101st.
      const site = await newSite('Rate', { plan: 'free' });
      const unknownSensor = await call('POST', '/api/v1/events', {
        token: site.org.token,
        body: { type: 'motion.detected', sensor_id: v7() },
      });
      const reads = await Promise.all(
        Array.from({ length: 96 }, () => call('GET', '/api/v1/users', { token: site.org.token })),
      );
      const refused = await call('POST', '/api/v1/events', {
        token: site.org.token,
        body: { type: 'motion.detected', sensor_id: site.sensorId },
      });
      const windows = new Set([unknownSensor, ...reads, refused].map((r) => r.headers.get('x-ratelimit-reset')));
      if (windows.size > 1) continue;
      expect(unknownSensor.status).toBe(404);
      expect(reads.every((r) => r.status === 200)).toBe(true);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBeTruthy();
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      expect((await listEvents(site.org.tenantId, {}, { limit: 10, offset: 0 })).events).toEqual([]);
      return;
    }
    throw new Error('the rate-limit window turned during both attempts');
  });
});

describe('events.batch', () => {
  it('stores 100 events in order; 101 is 422', async () => {
    const site = await newSite();
    const events = Array.from({ length: 100 }, (_, i) => ({
      type: 'sensor.reading',
      sensor_id: site.sensorId,
      payload: { value: i },
    }));
    const res = await call('POST', '/api/v1/events/batch', { token: site.org.token, body: { events } });
    expect(res.status).toBe(201);
    expect(res.body.map((e: { payload: { value: number } }) => e.payload.value)).toEqual(events.map((_, i) => i));
    const tooMany = await call('POST', '/api/v1/events/batch', {
      token: site.org.token,
      body: { events: [...events, events[0]] },
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail[0].loc).toEqual(['body', 'events']);
    const empty = await call('POST', '/api/v1/events/batch', { token: site.org.token, body: { events: [] } });
    expect(empty.status).toBe(422);
  });

  it('a bad event fails the whole batch and stores nothing, naming the event', async () => {
    const site = await newSite();
    const res = await call('POST', '/api/v1/events/batch', {
      token: site.org.token,
      body: { events: [{ type: 'motion.detected' }, { type: 'motion.detected', location: { lat: 95, lon: 0 } }] },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'events', 1, 'location', 'lat']);
    expect((await call('GET', '/api/v1/events', { token: site.org.token })).body).toEqual([]);
  });

  it("a SUPER_ADMIN's batch for two tenants stores each event in its tenant, each tenant's calls as that tenant", async () => {
    const [one, two] = await Promise.all([newSite('BatchOne'), newSite('BatchTwo')]);
    const events = [one, two, one, two].map((site, i) => ({
      type: 'motion.detected',
      tenant_id: site.org.tenantId,
      environment_id: site.environmentId,
      location: inside,
      payload: { value: i },
    }));
    const res = await call('POST', '/api/v1/events/batch', {
      token: await asAdmin(),
      body: { events },
      headers: { 'idempotency-key': `admin-batch-${Date.now()}` },
    });
    expect(res.status).toBe(201);
    expect(res.body.map((e: { tenant_id: string }) => e.tenant_id)).toEqual(events.map((e) => e.tenant_id));
    // Each event was matched against its own tenant's zone.
    expect(res.body.map((e: { matched_zone_ids: string[] }) => e.matched_zone_ids)).toEqual(
      [one, two, one, two].map((site) => [site.zoneId]),
    );
    for (const site of [one, two]) {
      const listed = (await call('GET', '/api/v1/events', { token: site.org.token })).body;
      expect(listed.map((e: { payload: { value: number } }) => e.payload.value).sort()).toEqual(
        site === one ? [0, 2] : [1, 3],
      );
    }
  });

  it('events of one zone in a batch raise each other density', async () => {
    const site = await newSite();
    const events = Array.from({ length: 10 }, () => ({
      type: 'motion.detected',
      environment_id: site.environmentId,
      location: inside,
    }));
    const res = await call('POST', '/api/v1/events/batch', { token: site.org.token, body: { events } });
    expect(
      res.body.map((e: { threat_factors: { density: { value: number } } }) => e.threat_factors.density.value),
    ).toEqual(Array.from({ length: 10 }, (_, i) => i / 20));
  });

  it('20 clients sending 100-event batches at once, each retrying its Idempotency-Key, store each event once', async () => {
    const site = await newSite('Load');
    await call('PATCH', `/api/v1/tenants/${site.org.tenantId}`, {
      token: await asAdmin(),
      body: { plan: 'enterprise' },
    });
    const clients = Array.from({ length: 20 }, (_, c) => ({
      key: `client-${c}-${Date.now()}`,
      events: Array.from({ length: 100 }, (_, i) => ({
        type: 'sensor.reading',
        environment_id: site.environmentId,
        payload: { value: c * 1000 + i },
      })),
    }));
    const send = (c: (typeof clients)[number]) =>
      call('POST', '/api/v1/events/batch', {
        token: site.org.token,
        body: { events: c.events },
        headers: { 'idempotency-key': c.key },
      });
    // Each client sends, and retries at once as if the first answer was lost.
    const results = await Promise.all(clients.flatMap((c) => [send(c), send(c)]));
    for (const r of results) expect(r.status).toBe(201);
    const retries = await Promise.all(clients.map(send));
    for (const r of retries) expect(r.headers.get('idempotent-replayed')).toBe('true');
    const seen = new Set<number>();
    for (let offset = 0; ; offset += 200) {
      const page = await call('GET', '/api/v1/events', { token: site.org.token, query: { limit: 200, offset } });
      for (const e of page.body) seen.add(e.payload.value);
      if (page.body.length < 200) {
        expect(offset + page.body.length).toBe(2000);
        break;
      }
    }
    expect(seen.size).toBe(2000);
  }, 120_000);
});

describe('events.list', () => {
  it('newest first, filtered by environment, type, processed and inclusive dates', async () => {
    const site = await newSite();
    const other = (
      await call('POST', '/api/v1/environments', { token: site.org.token, body: { name: 'Other', type: 'site' } })
    ).body;
    const post = async (body: Record<string, unknown>) =>
      (await call('POST', '/api/v1/events', { token: site.org.token, body })).body;
    const a = await post({ type: 'motion.detected', environment_id: site.environmentId });
    const b = await post({ type: 'door.forced', environment_id: site.environmentId });
    const c = await post({ type: 'motion.detected', environment_id: other.environment_id });
    const ids = async (query: Record<string, string | number | boolean>) =>
      (await call('GET', '/api/v1/events', { token: site.org.token, query })).body.map(
        (e: { event_id: string }) => e.event_id,
      );
    expect(await ids({})).toEqual([c.event_id, b.event_id, a.event_id]);
    expect(await ids({ environment_id: site.environmentId })).toEqual([b.event_id, a.event_id]);
    expect(await ids({ type: 'motion.detected' })).toEqual([c.event_id, a.event_id]);
    expect(await ids({ environment_id: site.environmentId, type: 'motion.detected' })).toEqual([a.event_id]);
    await call('PATCH', `/api/v1/events/${b.event_id}/processed`, { token: site.org.token, body: { processed: true } });
    expect(await ids({ processed: false })).toEqual([c.event_id, a.event_id]);
    expect(await ids({ processed: true })).toEqual([b.event_id]);
    expect(await ids({ start_date: b.received_at, end_date: b.received_at })).toContain(b.event_id);
    expect(await ids({ end_date: '2000-01-01T00:00:00.000Z' })).toEqual([]);
    expect(await ids({ limit: 1, offset: 1 })).toEqual([b.event_id]);
    const backwards = await call('GET', '/api/v1/events', {
      token: site.org.token,
      query: { start_date: '2030-01-01T00:00:00Z', end_date: '2020-01-01T00:00:00Z' },
    });
    expect(backwards.status).toBe(422);
  });

  it("another tenant's id is 404; a tenant sees only its own events", async () => {
    const a = await newSite('A');
    const b = await newSite('B');
    await call('POST', '/api/v1/events', {
      token: a.org.token,
      body: { type: 'motion.detected', description: 'A only' },
    });
    expect(
      (await call('GET', '/api/v1/events', { token: b.org.token, query: { tenant_id: a.org.tenantId } })).status,
    ).toBe(404);
    expect((await call('GET', '/api/v1/events', { token: b.org.token })).text).not.toContain('A only');
  });
});

describe('events.get', () => {
  it("reads one; another tenant's is 404", async () => {
    const a = await newSite('A');
    const b = await newSite('B');
    const event = (await call('POST', '/api/v1/events', { token: a.org.token, body: { type: 'glass.break' } })).body;
    expect((await call('GET', `/api/v1/events/${event.event_id}`, { token: a.org.token })).body).toEqual(event);
    expect((await call('GET', `/api/v1/events/${event.event_id}`, { token: b.org.token })).body).toEqual({
      detail: 'Event not found',
    });
  });

  it('an empty tenant_id names no tenant: the caller reads in its own (it was a 500 once the wall came)', async () => {
    const site = await newSite('EmptyTenant');
    const event = (await call('POST', '/api/v1/events', { token: site.org.token, body: { type: 'glass.break' } })).body;
    const read = await call('GET', `/api/v1/events/${event.event_id}`, {
      token: site.org.token,
      query: { tenant_id: '' },
    });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(event);
  });
});

describe('events.processed', () => {
  it('sets the flag with an operator score, audits it, and can clear it', async () => {
    const site = await newSite();
    const event = (await call('POST', '/api/v1/events', { token: site.org.token, body: { type: 'glass.break' } })).body;
    const res = await call('PATCH', `/api/v1/events/${event.event_id}/processed`, {
      token: site.org.token,
      body: { processed: true, threat_score: 0.2 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ processed: true, threat_score: 0.2 });
    expect(res.body.processed_at).toBeTruthy();
    expect(res.body.threat_factors.operator_override).toEqual({ value: 0.2, weight: 1 });
    const back = await call('PATCH', `/api/v1/events/${event.event_id}/processed`, {
      token: site.org.token,
      body: { processed: false },
    });
    expect(back.body).toMatchObject({ processed: false, processed_at: null });
  });

  it('an incident that does not exist (or is another tenant) is 404', async () => {
    const site = await newSite();
    const event = (await call('POST', '/api/v1/events', { token: site.org.token, body: { type: 'glass.break' } })).body;
    const res = await call('PATCH', `/api/v1/events/${event.event_id}/processed`, {
      token: site.org.token,
      body: { processed: true, incident_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Incident not found' });
  });
});

describe('reports.manual', () => {
  it('a report inside a zone comes back with that zone matched and a score with its factors; outside matches none', async () => {
    const site = await newSite();
    const report = {
      environment_id: site.environmentId,
      title: 'Person at the fence',
      description: 'Climbing near the depot',
    };
    const insideRes = await call('POST', '/api/v1/reports/manual', {
      token: site.org.token,
      body: { ...report, location: inside, severity: 'high' },
    });
    expect(insideRes.status).toBe(201);
    expect(insideRes.body.event).toMatchObject({
      type: 'manual_report',
      source: 'human',
      matched_zone_ids: [site.zoneId],
    });
    expect(insideRes.body.report_id).toBe(insideRes.body.event.event_id);
    expect(insideRes.body.event.payload.title).toBe('Person at the fence');
    expect(Object.keys(insideRes.body.event.threat_factors).sort()).toEqual([
      'after_hours',
      'density',
      'reported_severity',
      'sensor_health',
      'type',
      'zone',
    ]);
    const outsideRes = await call('POST', '/api/v1/reports/manual', {
      token: site.org.token,
      body: { ...report, location: outside },
    });
    expect(outsideRes.body.event.matched_zone_ids).toEqual([]);
    expect(outsideRes.body.event.threat_score).toBeLessThan(insideRes.body.event.threat_score);
  });
});
