/**
 * What the cost benchmarks (bin/bench-request-cost.ts, bin/bench-cost-growth.ts) seed for the
 * vessel routes: an environment with a cable (the tests' KML, uploaded), the tests' AIS traffic
 * (test/support/ais.ts) ingested as sentences, and the vessels tracked as the stream worker would
 * (the benchmarks run no workers).
 */
import type { TenantId } from '../shared/vocabulary/tenant.js';

export interface VesselSeed {
  environmentId: string;
  /** The AIS events sent, oldest first (a benchmark sends them again as a batch). */
  traffic: { type: string; environment_id: string; occurred_at: string; payload: { nmea: string | string[] } }[];
}

/**
 * `call` sends a JSON request as the tenant's administrator and returns the answer's body (throwing
 * on a failure); `baseUrl` and `token` serve the cable's multipart upload.
 */
export async function seedVessels(
  call: <T>(method: string, path: string, body?: unknown) => Promise<T>,
  baseUrl: string,
  token: string,
  tenantId: string,
): Promise<VesselSeed> {
  const { scenario, CABLE_KML } = await import('../test/support/ais.js');
  const { trackTenant } = await import('../shared/domain/vessels/index.js');
  const sea = await call<{ environment_id: string }>('POST', '/api/v1/environments', { name: 'Strait', type: 'port' });
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(CABLE_KML)]), 'cable.kml');
  const uploaded = await fetch(new URL(`/api/v1/environments/${sea.environment_id}/infrastructure/upload`, baseUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (uploaded.status !== 201) throw new Error(`cable upload: ${uploaded.status}`);
  const traffic = scenario(new Date(Date.now() - 150 * 60_000)).map((r) => ({
    type: 'ais.position',
    environment_id: sea.environment_id,
    occurred_at: r.at.toISOString(),
    payload: { nmea: r.nmea.length === 1 ? r.nmea[0]! : r.nmea },
  }));
  for (let i = 0; i < traffic.length; i += 100)
    await call('POST', '/api/v1/events/batch', { events: traffic.slice(i, i + 100) });
  const aisEvents: Parameters<typeof trackTenant>[1][number][] = [];
  for (const type of ['ais.static', 'ais.position'])
    aisEvents.push(
      ...(await call<typeof aisEvents>('GET', `/api/v1/events?tenant_id=${tenantId}&type=${type}&limit=200`)),
    );
  await trackTenant(tenantId as TenantId, aisEvents.reverse());
  return { environmentId: sea.environment_id, traffic };
}
