/**
 * Threat definitions drive the score at ingest: through the real API and DynamoDB Local.
 */
import { describe, expect, it } from 'vitest';
import { call, registerTenant } from '../support/api.js';
import { denials, ingest, library, site, type EventBody } from '../support/threat-site.js';

const sumOfFactors = (e: EventBody) =>
  Math.min(1, Math.round(Object.values(e.threat_factors).reduce((s, f) => s + f.value * f.weight, 0) * 1000) / 1000);

describe('threat definitions at ingest', () => {
  it('an event matching an active definition names it, and its weight adds to the score; deactivated, it stops matching on the next event', async () => {
    const org = await registerTenant('Signatures');
    const { environmentId, zoneId } = await site(org);
    const lib = await library(org, [denials]);

    // The first two denials are not "repeated" yet; the third is.
    const [first, second] = [await ingest(org, environmentId), await ingest(org, environmentId)];
    for (const e of [first, second]) {
      expect(e.matched_signatures).toEqual([]);
      expect(e.threat_factors.signatures).toBeUndefined();
    }
    const third = await ingest(org, environmentId);
    expect(third.matched_signatures).toEqual([
      {
        library_id: lib.library_id,
        definition_id: 'repeated-denials',
        name: denials.name,
        severity: 'high',
        weight: 0.6,
        zone_id: zoneId,
      },
    ]);
    expect(third.threat_factors.signatures).toEqual({ value: 0.6, weight: 1 });
    expect(third.threat_score).toBe(sumOfFactors(third));
    expect(third.threat_score).toBeGreaterThanOrEqual(Math.min(1, second.threat_score + 0.6 - 0.01));
    // Another type at the same gate matches nothing.
    expect((await ingest(org, environmentId, 'access.granted')).matched_signatures).toEqual([]);

    // Reading the event back shows the same.
    const read = await call('GET', `/api/v1/events/${third.event_id}`, { token: org.token });
    expect(read.body.matched_signatures.map((m: { name: string }) => m.name)).toEqual([denials.name]);

    // Deactivate the definition: the very next event does not match.
    const patched = await call('PATCH', `/api/v1/threat-libraries/${lib.library_id}`, {
      token: org.token,
      body: { definitions: [{ ...denials, active: false }] },
    });
    expect(patched.status).toBe(200);
    const after = await ingest(org, environmentId);
    expect(after.matched_signatures).toEqual([]);
    // And a whole library switched off matches nothing either.
    await call('PATCH', `/api/v1/threat-libraries/${lib.library_id}`, {
      token: org.token,
      body: { definitions: [denials], active: false },
    });
    expect((await ingest(org, environmentId)).matched_signatures).toEqual([]);
    await call('PATCH', `/api/v1/threat-libraries/${lib.library_id}`, { token: org.token, body: { active: true } });
    expect((await ingest(org, environmentId)).matched_signatures.map((m) => m.definition_id)).toEqual([
      'repeated-denials',
    ]);
  }, 60_000);

  it('an event matching a seeded definition comes back with its name in matched_signatures', async () => {
    const org = await registerTenant('Seeded');
    const { environmentId } = await site(org);
    expect((await call('POST', '/api/v1/threat-libraries/seed', { token: org.token })).status).toBe(200);
    const libraries = (
      await call('GET', '/api/v1/threat-libraries', { token: org.token, query: { tenant_id: org.tenantId } })
    ).body as {
      definitions: { name: string; match: { event_types: string[]; zone_types?: string[] } }[];
    }[];
    const tailgating = libraries
      .flatMap((l) => l.definitions)
      .find((d) => d.match.event_types.includes('tailgating.detected'));
    expect(tailgating, 'the seed has a tailgating definition').toBeDefined();
    const event = await ingest(org, environmentId, 'tailgating.detected');
    expect(event.matched_signatures.map((m) => m.name)).toContain(tailgating!.name);
  }, 60_000);
});
