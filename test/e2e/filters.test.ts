/** The filters people expect: events by zone, score and source; incidents by environment and zone. */
import { describe, expect, it } from 'vitest';
import { v7 } from 'uuid';
import { call, registerTenant, type RegisteredTenant } from '../support/api.js';
import { storedEventAt } from '../support/seed.js';
import { eventItem, writeAll, type StoredEvent } from '../../shared/db/events.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';
import { timeOfId } from '../../shared/ids.js';

/** An environment with two zones 1 km apart (circles of 100 m) and the points inside each and outside. */
async function site(org: RegisteredTenant) {
  const env = (await call('POST', '/api/v1/environments', { token: org.token, body: { name: 'Port', type: 'site' } }))
    .body;
  const zone = async (name: string, lon: number) =>
    (
      await call('POST', '/api/v1/zones', {
        token: org.token,
        body: {
          environment_id: env.environment_id,
          name,
          security_level: 3,
          geofence: { type: 'Circle', center: [lon, 59.9], radius_m: 100 },
        },
      })
    ).body;
  const quay = await zone('Quay', 10.7);
  const yard = await zone('Yard', 10.718);
  return {
    env,
    quay,
    yard,
    at: { quay: { lat: 59.9, lon: 10.7 }, yard: { lat: 59.9, lon: 10.718 }, outside: { lat: 59.95, lon: 10.8 } },
  };
}

const post = async (org: RegisteredTenant, body: Record<string, unknown>) => {
  const res = await call('POST', '/api/v1/events', { token: org.token, body: { type: 'motion.detected', ...body } });
  expect(res.status).toBe(201);
  return res.body as { event_id: string; threat_score: number; matched_zone_ids: string[]; incident_id: string | null };
};
const ids = (list: { event_id: string }[]) => list.map((e) => e.event_id).sort();

describe('events.list filters', () => {
  it('zone_id, min_score and source each narrow the list to what matches, alone and together', async () => {
    const org = await registerTenant('Filters');
    const s = await site(org);
    const environment_id = s.env.environment_id;
    const inQuay = await post(org, { environment_id, location: s.at.quay, source: 'sensor' });
    const inQuayByHand = await post(org, {
      environment_id,
      location: s.at.quay,
      source: 'human',
      type: 'intrusion.detected',
      severity: 'high',
    });
    const inYard = await post(org, { environment_id, location: s.at.yard, source: 'human' });
    const outside = await post(org, { environment_id, location: s.at.outside, source: 'api' });
    expect(inQuay.matched_zone_ids).toEqual([s.quay.zone_id]);

    const list = async (query: Record<string, string | number>) => {
      const res = await call('GET', '/api/v1/events', { token: org.token, query });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-read-limit-reached')).toBeNull();
      return res.body as { event_id: string; threat_score: number }[];
    };
    expect(ids(await list({ zone_id: s.quay.zone_id }))).toEqual(ids([inQuay, inQuayByHand]));
    expect(ids(await list({ zone_id: s.yard.zone_id }))).toEqual(ids([inYard]));
    expect(ids(await list({ source: 'human' }))).toEqual(ids([inQuayByHand, inYard]));
    expect(ids(await list({ zone_id: s.quay.zone_id, source: 'human' }))).toEqual(ids([inQuayByHand]));

    const all = [inQuay, inQuayByHand, inYard, outside];
    const cut = inQuayByHand.threat_score;
    expect(all.some((e) => e.threat_score < cut)).toBe(true);
    expect(ids(await list({ min_score: cut }))).toEqual(ids(all.filter((e) => e.threat_score >= cut)));
    expect(await list({ min_score: 1, environment_id })).toEqual([]);
  });

  it("another tenant's zone is 404; a zone of another environment than the one named matches nothing", async () => {
    const org = await registerTenant('FiltersA');
    const other = await registerTenant('FiltersB');
    const mine = await site(org);
    const theirs = await site(other);
    expect(
      (await call('GET', '/api/v1/events', { token: org.token, query: { zone_id: theirs.quay.zone_id } })).status,
    ).toBe(404);
    const env2 = (
      await call('POST', '/api/v1/environments', { token: org.token, body: { name: 'Depot', type: 'site' } })
    ).body;
    await post(org, { environment_id: mine.env.environment_id, location: mine.at.quay });
    const res = await call('GET', '/api/v1/events', {
      token: org.token,
      query: { zone_id: mine.quay.zone_id, environment_id: env2.environment_id },
    });
    expect(res.body).toEqual([]);
    expect((await call('GET', '/api/v1/events', { token: org.token, query: { min_score: 1.5 } })).status).toBe(422);
    expect((await call('GET', '/api/v1/events', { token: org.token, query: { source: 'satellite' } })).status).toBe(
      422,
    );
  });

  it('says when a filtered page stopped at the read limit with matches possibly beyond it', async () => {
    const org = await registerTenant('Bounded');
    const tenantId = systemTenant(org.tenantId);
    const at = new Date().toISOString();
    const event = (source: string): StoredEvent =>
      storedEventAt(tenantId, null, Date.parse(at), { event_id: v7(), source });
    // The one human report is the oldest; 10,001 sensor readings (more than a page may read) came
    // after it. A filter on the dominant source (`api`, not keyed: it drops few, usually) reads
    // through them and stops.
    const old = event('human');
    const readings = Array.from({ length: 10_001 }, () => event('sensor'));
    const items = [old, ...readings].map((e) => eventItem({ event: e, contentHash: '', expiresAt: 0 }));
    // A thousand at a time: writeAll sends its chunks of 25 at once, more than the client's sockets.
    for (let i = 0; i < items.length; i += 1000) await writeAll(items.slice(i, i + 1000));
    const page = await call('GET', '/api/v1/events', { token: org.token, query: { source: 'api' } });
    expect(page.body, JSON.stringify(page.body)).toEqual([]);
    expect(page.headers.get('x-read-limit-reached')).toBe('true');
    // And how far back it looked: the 10,000th reading from the newest, the oldest it read.
    expect(page.headers.get('x-read-back-to')).toBe(new Date(timeOfId(readings[1]!.event_id)).toISOString());
    // The human report is found by its source's key, past them all.
    const reports = await call('GET', '/api/v1/events', { token: org.token, query: { source: 'human' } });
    expect((reports.body as { event_id: string }[]).map((e) => e.event_id)).toEqual([old.event_id]);
    expect(reports.headers.get('x-read-limit-reached')).toBeNull();
    // A keyed source with a filter its key drops every entry of: as bounded, and said so.
    const doors = await call('GET', '/api/v1/events', {
      token: org.token,
      query: { source: 'sensor', type: 'door.forced' },
    });
    expect(doors.body).toEqual([]);
    expect(doors.headers.get('x-read-limit-reached')).toBe('true');
    expect(doors.headers.get('x-read-back-to')).toBe(new Date(timeOfId(readings[1]!.event_id)).toISOString());
    // Without a filter nothing is dropped: the newest page, and no such header.
    const plain = await call('GET', '/api/v1/events', { token: org.token, query: { limit: 5 } });
    expect(plain.body).toHaveLength(5);
    expect(plain.headers.get('x-read-limit-reached')).toBeNull();
    expect(plain.headers.get('x-read-back-to')).toBeNull();
  }, 120_000);
});

describe('incidents.list filters', () => {
  it('environment_id and zone_id find incidents by where they are; linking an event adds its zone, unlinking removes it', async () => {
    const org = await registerTenant('IncFilters');
    const s = await site(org);
    const other = (
      await call('POST', '/api/v1/environments', { token: org.token, body: { name: 'Office', type: 'site' } })
    ).body;
    const open = async (body: Record<string, unknown>) =>
      (await call('POST', '/api/v1/incidents', { token: org.token, body: { title: 'Check', ...body } })).body;
    const atQuay = await open({ environment_id: s.env.environment_id, location: s.at.quay });
    const elsewhere = await open({ environment_id: other.environment_id });
    expect(atQuay.zone_ids).toEqual([s.quay.zone_id]);

    const list = async (query: Record<string, string>) =>
      (
        (await call('GET', '/api/v1/incidents', { token: org.token, query })).body.items as { incident_id: string }[]
      ).map((i) => i.incident_id);
    expect(await list({ zone_id: s.quay.zone_id })).toEqual([atQuay.incident_id]);
    expect(await list({ environment_id: other.environment_id })).toEqual([elsewhere.incident_id]);
    expect(await list({ zone_id: s.yard.zone_id })).toEqual([]);

    const yardEvent = await post(org, { environment_id: s.env.environment_id, location: s.at.yard });
    await call('PATCH', `/api/v1/events/${yardEvent.event_id}/processed`, {
      token: org.token,
      body: { processed: true, incident_id: elsewhere.incident_id },
    });
    expect(await list({ zone_id: s.yard.zone_id })).toEqual([elsewhere.incident_id]);
    await call('PATCH', `/api/v1/events/${yardEvent.event_id}/processed`, {
      token: org.token,
      body: { processed: true, incident_id: null },
    });
    expect(await list({ zone_id: s.yard.zone_id })).toEqual([]);

    const stranger = await registerTenant('IncFiltersOther');
    const theirs = await site(stranger);
    expect(
      (await call('GET', '/api/v1/incidents', { token: org.token, query: { zone_id: theirs.quay.zone_id } })).status,
    ).toBe(404);
    expect(
      (
        await call('GET', '/api/v1/incidents', {
          token: org.token,
          query: { environment_id: theirs.env.environment_id },
        })
      ).status,
    ).toBe(404);
    // Two tenants with their sites and some twenty requests in a row: past the default 20 s on a busy machine.
  }, 60_000);
});
