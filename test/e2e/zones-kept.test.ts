/**
 * Ingest keeps each environment's zones between requests and trusts them while the tenant's zone
 * revision (read with its other lookups) is unchanged; every zone write moves the revision. A
 * change to a zone must count from the very next event, however long the zones were kept.
 */
import { describe, expect, it } from 'vitest';
import { SETTLE_MS } from '../../shared/domain/sites/zone-cache.js';
import { call, registerTenant } from '../support/api.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 250));
const QUAY = { lat: 59.9101, lon: 10.7501 };

describe('zones kept by ingest', () => {
  it('a zone created, changed, switched off or deleted counts from the next event on', async () => {
    const org = await registerTenant('Kept zones');
    const env = (
      await call('POST', '/api/v1/environments', { token: org.token, body: { name: 'Harbour', type: 'port' } })
    ).body;
    const zone = (
      await call('POST', '/api/v1/zones', {
        token: org.token,
        body: {
          environment_id: env.environment_id,
          name: 'Quay',
          security_level: 2,
          geofence: { type: 'Circle', center: [10.75, 59.91], radius_m: 300 },
        },
      })
    ).body;
    const ingest = async () => {
      const res = await call('POST', '/api/v1/events', {
        token: org.token,
        body: { type: 'motion.detected', environment_id: env.environment_id, location: QUAY },
      });
      expect(res.status).toBe(201);
      return res.body as { matched_zone_ids: string[]; threat_factors: Record<string, { value: number }> };
    };
    const zoneLevel = (e: Awaited<ReturnType<typeof ingest>>) => e.threat_factors.zone!.value;

    // Long enough after the change for the zones to be kept, then used twice.
    await settle();
    const first = await ingest();
    expect(first.matched_zone_ids).toEqual([zone.zone_id]);
    expect(zoneLevel(first)).toBe(0.25);
    expect((await ingest()).matched_zone_ids).toEqual([zone.zone_id]);

    // A higher security level: the next event scores it.
    expect(
      (
        await call('PATCH', `/api/v1/zones/${zone.zone_id}`, {
          token: org.token,
          query: { tenant_id: org.tenantId },
          body: { security_level: 5 },
        })
      ).status,
    ).toBe(200);
    const raised = await ingest();
    expect(zoneLevel(raised)).toBe(1);

    // Its fence moved away, then back but switched off: outside, then no zone.
    expect(
      (
        await call('PATCH', `/api/v1/zones/${zone.zone_id}`, {
          token: org.token,
          query: { tenant_id: org.tenantId },
          body: { geofence: { type: 'Circle', center: [11.5, 60.5], radius_m: 300 } },
        })
      ).status,
    ).toBe(200);
    expect((await ingest()).matched_zone_ids).toEqual([]);
    expect(
      (
        await call('PATCH', `/api/v1/zones/${zone.zone_id}`, {
          token: org.token,
          query: { tenant_id: org.tenantId },
          body: { geofence: { type: 'Circle', center: [10.75, 59.91], radius_m: 300 }, active: false },
        })
      ).status,
    ).toBe(200);
    expect((await ingest()).matched_zone_ids).toEqual([]);

    // Kept with no active zone; a new zone: matched at once; kept again; deleted: gone at once.
    await settle();
    expect((await ingest()).matched_zone_ids).toEqual([]);
    const added = (
      await call('POST', '/api/v1/zones', {
        token: org.token,
        body: {
          environment_id: env.environment_id,
          name: 'Gate',
          geofence: { type: 'Circle', center: [10.75, 59.91], radius_m: 100 },
        },
      })
    ).body;
    expect((await ingest()).matched_zone_ids).toEqual([added.zone_id]);
    await settle();
    expect((await ingest()).matched_zone_ids).toEqual([added.zone_id]);
    expect(
      (await call('DELETE', `/api/v1/zones/${added.zone_id}`, { token: org.token, query: { tenant_id: org.tenantId } }))
        .status,
    ).toBe(204);
    expect((await ingest()).matched_zone_ids).toEqual([]);
  }, 60_000);
});
