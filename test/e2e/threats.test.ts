/**
 * What threat definitions match shows as active threats: through the real API, the local stream
 * consumer and DynamoDB Local.
 */
import { describe, expect, it } from 'vitest';
import { call, createUser, registerTenant } from '../support/api.js';
import { denials, ingest, library, site, until, type ThreatBody } from '../support/threat-site.js';

describe('threats.list', () => {
  it('lists what matches now: definition, zone, count, first and last seen, and the incidents opened', async () => {
    const org = await registerTenant('Threats');
    const { environmentId, zoneId } = await site(org);
    await library(org, [denials]);
    const events = [];
    for (let i = 0; i < 5; i++) events.push(await ingest(org, environmentId));
    const matched = events.filter((e) => e.matched_signatures.length > 0);
    expect(matched).toHaveLength(3);
    // Its weight lifts the score over the tenant's threshold (0.7): each matched event opened an incident.
    expect(matched.every((e) => e.incident_id)).toBe(true);

    const threats = await until(
      async () => (await call('GET', '/api/v1/threats', { token: org.token })).body as ThreatBody[],
      (list) => list.length === 1 && list[0]!.count === 3 && list[0]!.incident_ids.length === 3,
      'the threat to be counted',
    );
    expect(threats[0]).toMatchObject({
      definition_id: 'repeated-denials',
      name: denials.name,
      zone_id: zoneId,
      status: 'active',
      count: 3,
      first_seen: matched[0]!.occurred_at,
      last_seen: matched[2]!.occurred_at,
    });
    expect(threats[0]!.incident_ids.sort()).toEqual(matched.map((e) => e.incident_id).sort());

    // Filters: by zone and severity it is there; by another severity or a zone of nothing, not.
    const filtered = async (query: Record<string, string | number>) =>
      ((await call('GET', '/api/v1/threats', { token: org.token, query })).body as ThreatBody[]).length;
    expect(await filtered({ zone_id: zoneId, severity: 'high', status: 'active' })).toBe(1);
    expect(await filtered({ severity: 'low' })).toBe(0);
    // A zone or library that is not the tenant's is unknown.
    expect(
      (
        await call('GET', '/api/v1/threats', {
          token: org.token,
          query: { zone_id: '00000000-0000-4000-8000-000000000000' },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call('GET', '/api/v1/threats', {
          token: org.token,
          query: { library_id: '00000000-0000-4000-8000-000000000000' },
        })
      ).status,
    ).toBe(404);
    expect((await call('GET', '/api/v1/threats', { token: org.token, query: { limit: 0 } })).status).toBe(422);

    // Another tenant sees none of it.
    const other = await registerTenant('Other');
    expect((await call('GET', '/api/v1/threats', { token: other.token })).body).toEqual([]);
    expect(
      (await call('GET', '/api/v1/threats', { token: other.token, query: { tenant_id: org.tenantId } })).status,
    ).toBe(404);
  }, 60_000);
});

describe('threats.get', () => {
  it("answers a threat by id, and another tenant's as unknown", async () => {
    const org = await registerTenant('Threat get');
    const { environmentId } = await site(org);
    await library(org, [{ ...denials, match: { event_types: ['access.denied'] } }]);
    const event = await ingest(org, environmentId);
    expect(event.incident_id).not.toBeNull();
    // Settled: its incident linked too.
    const [threat] = await until(
      async () => (await call('GET', '/api/v1/threats', { token: org.token })).body as ThreatBody[],
      (list) => list.length === 1 && list[0]!.incident_ids.length === 1,
      'the threat',
    );
    expect(threat!.incident_ids).toEqual([event.incident_id]);
    const res = await call('GET', `/api/v1/threats/${threat!.threat_id}`, { token: org.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(threat);
    const other = await registerTenant('Other');
    const foreign = await call('GET', `/api/v1/threats/${threat!.threat_id}`, { token: other.token });
    const unknown = await call('GET', '/api/v1/threats/00000000-0000-4000-8000-000000000000', { token: org.token });
    expect([foreign.status, unknown.status]).toEqual([404, 404]);
    expect(foreign.body).toEqual(unknown.body);
  }, 60_000);
});

describe('threats.dismiss', () => {
  it('dismisses with a reason, audited; a later match makes it active again and the count goes on', async () => {
    const org = await registerTenant('Dismiss');
    const { environmentId } = await site(org);
    await library(org, [{ ...denials, match: { event_types: ['access.denied'] } }]);
    await ingest(org, environmentId);
    const [threat] = await until(
      async () => (await call('GET', '/api/v1/threats', { token: org.token })).body as ThreatBody[],
      (list) => list.length === 1,
      'the threat',
    );

    const viewer = await createUser(org.token, 'VIEWER');
    expect(
      (await call('POST', `/api/v1/threats/${threat!.threat_id}/dismiss`, { token: viewer.token, body: {} })).status,
    ).toBe(403);
    const dismissed = await call('POST', `/api/v1/threats/${threat!.threat_id}/dismiss`, {
      token: org.token,
      body: { reason: 'Contractor with a faulty badge' },
    });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body).toMatchObject({
      status: 'dismissed',
      dismiss_reason: 'Contractor with a faulty badge',
      dismissed_by: org.userId,
    });
    expect(
      ((await call('GET', '/api/v1/threats', { token: org.token, query: { status: 'active' } })).body as ThreatBody[])
        .length,
    ).toBe(0);
    const audit = await call('GET', `/api/v1/audit-logs/${org.tenantId}`, {
      token: org.token,
      query: { action: 'threat.dismissed' },
    });
    expect(audit.body.items.map((a: { resource_id: string }) => a.resource_id)).toEqual([threat!.threat_id]);

    await ingest(org, environmentId);
    const again = await until(
      async () => (await call('GET', `/api/v1/threats/${threat!.threat_id}`, { token: org.token })).body as ThreatBody,
      (t) => t.count === 2,
      'the second match',
    );
    expect(again.status).toBe('active');

    const other = await registerTenant('Other');
    expect(
      (await call('POST', `/api/v1/threats/${threat!.threat_id}/dismiss`, { token: other.token, body: {} })).status,
    ).toBe(404);
  }, 60_000);
});
