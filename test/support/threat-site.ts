/**
 * A site with a staff entrance, threat libraries and events at its gate, through the real API:
 * what the threat tests (matching at ingest, active threats) share.
 */
import { expect } from 'vitest';
import { call, type RegisteredTenant } from './api.js';

export const GATE = { lat: 51.5007, lon: -0.1246 };

export interface EventBody {
  event_id: string;
  occurred_at: string;
  matched_signatures: {
    library_id: string;
    definition_id: string;
    name: string;
    severity: string;
    weight: number;
    zone_id: string | null;
  }[];
  threat_score: number;
  threat_factors: Record<string, { value: number; weight: number }>;
  incident_id: string | null;
}

export interface ThreatBody {
  threat_id: string;
  definition_id: string;
  name: string;
  zone_id: string | null;
  status: string;
  count: number;
  first_seen: string;
  last_seen: string;
  incident_ids: string[];
  dismiss_reason: string | null;
}

/**
 * Reads until `done` holds (the stream consumer works a moment after the write). The bound is for a
 * consumer that never runs, not a speed: on a loaded 2-core machine a run takes seconds.
 */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 45_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function site(org: RegisteredTenant) {
  const env = await call<{ environment_id: string }>('POST', '/api/v1/environments', {
    token: org.token,
    body: { name: 'Head office', type: 'building' },
  });
  expect(env.status).toBe(201);
  const zone = await call<{ zone_id: string }>('POST', '/api/v1/zones', {
    token: org.token,
    body: {
      environment_id: env.body.environment_id,
      name: 'Staff entrance',
      type: 'entrance',
      security_level: 3,
      geofence: { type: 'Circle', center: [GATE.lon, GATE.lat], radius_m: 50 },
    },
  });
  expect(zone.status).toBe(201);
  return { environmentId: env.body.environment_id, zoneId: zone.body.zone_id };
}

/** A definition that matches the third denied badge at an entrance within the hour. */
export const denials = {
  definition_id: 'repeated-denials',
  name: 'Repeated access denials at an entrance',
  description: 'Three or more denied badges at one entrance within the hour: badge probing or a cloned card.',
  severity: 'high',
  weight: 0.6,
  match: { event_types: ['access.denied'], zone_types: ['entrance'], repeat: { count: 3 } },
};

export async function library(org: RegisteredTenant, definitions: unknown[]) {
  const res = await call('POST', '/api/v1/threat-libraries', {
    token: org.token,
    body: { name: 'Access control', vertical: 'security', definitions },
  });
  expect(res.status).toBe(201);
  return res.body as { library_id: string; definitions: { definition_id: string }[] };
}

export async function ingest(
  org: RegisteredTenant,
  environmentId: string,
  type = 'access.denied',
  extra: Record<string, unknown> = {},
): Promise<EventBody> {
  const res = await call('POST', '/api/v1/events', {
    token: org.token,
    body: { type, environment_id: environmentId, location: GATE, ...extra },
  });
  expect(res.status).toBe(201);
  return res.body as EventBody;
}
