/**
 * The density factor comes from counters kept as events are written (a tenant's minutes), no
 * longer from reading the environment's events back. For the same history it must score the
 * same: each stored event's factor is compared with the old definition, recomputed here from the
 * events themselves ("events already recorded in the zone in the hour before, then the ones
 * before it in its batch; the highest over its zones, / 20, at most 1").
 */
import { describe, expect, it } from 'vitest';
import { call, registerTenant } from '../support/api.js';

interface StoredEvent {
  event_id: string;
  matched_zone_ids: string[];
  threat_factors: Record<string, { value: number; weight: number }>;
}

const zone = (environmentId: string, name: string, center: [number, number], radius: number) => ({
  environment_id: environmentId,
  name,
  security_level: 3,
  geofence: { type: 'Circle', center, radius_m: radius },
});

describe('density from zone counters', () => {
  it('scores every event of a mixed history as reading the events back did', async () => {
    const org = await registerTenant('Density');
    const env = (
      await call('POST', '/api/v1/environments', { token: org.token, body: { name: 'Harbour', type: 'port' } })
    ).body;
    const other = (
      await call('POST', '/api/v1/environments', { token: org.token, body: { name: 'Depot', type: 'port' } })
    ).body;
    // Two overlapping zones (the quay inside the wide fence), and a zone of another environment at the same place.
    const zoneIds: string[] = [];
    for (const body of [
      zone(env.environment_id, 'Fence', [10.75, 59.91], 800),
      zone(env.environment_id, 'Quay', [10.75, 59.91], 100),
      zone(other.environment_id, 'Depot yard', [10.75, 59.91], 800),
    ]) {
      const res = await call('POST', '/api/v1/zones', { token: org.token, body });
      expect(res.status).toBe(201);
      zoneIds.push(res.body.zone_id);
    }
    const quay = { lat: 59.9101, lon: 10.7501 };
    const fenceOnly = { lat: 59.914, lon: 10.75 };
    const at = (environmentId: string, location: { lat: number; lon: number }) => ({
      type: 'motion.detected',
      environment_id: environmentId,
      location,
    });

    // Singles, batches, events in the other environment between them, and enough to saturate the quay.
    const history: unknown[][] = [
      [at(env.environment_id, quay)],
      [at(env.environment_id, fenceOnly)],
      [at(other.environment_id, quay), at(other.environment_id, quay)],
      Array.from({ length: 12 }, (_, i) => at(env.environment_id, i % 3 === 0 ? fenceOnly : quay)),
      [at(env.environment_id, quay)],
      Array.from({ length: 15 }, () => at(env.environment_id, quay)),
      [at(env.environment_id, fenceOnly)],
      [{ type: 'motion.detected', environment_id: env.environment_id }],
      [at(env.environment_id, quay)],
    ];
    for (const events of history) {
      const res =
        events.length === 1
          ? await call('POST', '/api/v1/events', { token: org.token, body: events[0] })
          : await call('POST', '/api/v1/events/batch', { token: org.token, body: { events } });
      expect(res.status).toBe(201);
    }

    const stored: StoredEvent[] = (
      await call('GET', '/api/v1/events', { token: org.token, query: { tenant_id: org.tenantId, limit: '100' } })
    ).body;
    expect(stored).toHaveLength(history.flat().length);
    const oldestFirst = [...stored].sort((a, b) => a.event_id.localeCompare(b.event_id));
    const densities = oldestFirst.map((event, i) => {
      if (event.matched_zone_ids.length === 0) return 0;
      const before = oldestFirst.slice(0, i);
      const inZone = (zoneId: string) => before.filter((e) => e.matched_zone_ids.includes(zoneId)).length;
      return Math.min(1, Math.max(...event.matched_zone_ids.map(inZone)) / 20);
    });
    expect(oldestFirst.map((e) => e.threat_factors.density!.value)).toEqual(
      densities.map((d) => Math.round(d * 1000) / 1000),
    );
    // The history reaches saturation, and the other environment's zone counts apart.
    expect(Math.max(...densities)).toBe(1);
    const depot = oldestFirst.filter((e) => e.matched_zone_ids.includes(zoneIds[2]!));
    expect(depot.map((e) => e.threat_factors.density!.value)).toEqual([0, 0.05]);
  });
});
