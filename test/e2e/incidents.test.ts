/** Incidents end to end: opening, the lifecycle, acknowledgement links, escalation, feed and replay. */
import { describe, expect, it } from 'vitest';
import { v7 } from 'uuid';
import { asAdmin, call, createUser, registerTenant, type RegisteredTenant } from '../support/api.js';
import { auditEntriesOf, outboxOf } from '../support/seed.js';
import { ackPathOf as sentAckPath, sentNotifications } from '../support/notifications.js';
import { newEnvironment, newZone } from '../support/sites.js';

const announced = outboxOf;

/** The link of the latest notification sent about the incident (minted when it was sent). */
async function ackPathOf(tenantId: string, incidentId: string): Promise<string> {
  const notes = (await announced(tenantId)).filter(
    (m) => m.detail_type === 'incident.notification' && m.detail.incident_id === incidentId,
  );
  expect(notes.length).toBeGreaterThan(0);
  // The bus message names no link: the token exists only in what a person is sent.
  expect(JSON.stringify(notes)).not.toContain('token=');
  return sentAckPath(incidentId, notes.length);
}

async function open(org: RegisteredTenant, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/v1/incidents', {
    token: org.token,
    body: { title: 'Fence cut at the north gate', severity: 'high', ...body },
  });
  expect(res.status).toBe(201);
  return res.body;
}

const respond = (org: RegisteredTenant, id: string, body: Record<string, unknown>) =>
  call('PATCH', `/api/v1/incidents/${id}/respond`, { token: org.token, body });

describe('incidents.create', () => {
  it('opens a confirmed incident with its SLA due time, audit, feed entry and a notification carrying the link', async () => {
    const org = await registerTenant('Inc');
    const incident = await open(org);
    expect(incident).toMatchObject({
      status: 'confirmed',
      severity: 'high',
      escalation_level: 0,
      source: 'manual',
      resolution: null,
    });
    expect(incident.transitions.map((t: { to: string }) => t.to)).toEqual(['draft', 'confirmed']);
    // High severity: 60 minutes to acknowledge by default.
    expect(Date.parse(incident.sla_due_at) - Date.parse(incident.created_at)).toBe(60 * 60_000);
    const messages = await announced(org.tenantId);
    expect(messages.map((m) => m.detail_type)).toEqual(
      expect.arrayContaining(['incident.created', 'incident.notification']),
    );
    expect(await ackPathOf(org.tenantId, incident.incident_id)).toMatch(
      new RegExp(`^/api/v1/incidents/${incident.incident_id}/acknowledge\\?token=ack_`),
    );
    expect((await auditEntriesOf(org.tenantId)).at(-1)).toMatchObject({
      action: 'incident.created',
      resource_id: incident.incident_id,
    });
    const feed = await call('GET', '/api/v1/feed', { token: org.token });
    expect(feed.body[0]).toMatchObject({ kind: 'incident.created', incident_id: incident.incident_id });
  });

  it('a viewer cannot open one', async () => {
    const org = await registerTenant('Inc');
    const viewer = await createUser(org.token, 'VIEWER');
    expect((await call('POST', '/api/v1/incidents', { token: viewer.token, body: { title: 'x' } })).status).toBe(403);
  });
});

describe('incidents.respond', () => {
  it('walks the lifecycle in order; each forbidden step is 409 and changes nothing', async () => {
    const org = await registerTenant('Inc');
    const operator = await createUser(org.token, 'OPERATOR');
    const draft = await open(org, { status: 'draft' });
    expect((await respond(org, draft.incident_id, { status: 'resolved', resolution: 'true_positive' })).status).toBe(
      409,
    );
    expect((await respond(org, draft.incident_id, { status: 'confirmed' })).body.status).toBe('confirmed');
    const ack = await call('POST', await ackPathOf(org.tenantId, draft.incident_id));
    expect(ack.status).toBe(200);
    expect(ack.body.status).toBe('acknowledged');
    const assigned = await respond(org, draft.incident_id, { status: 'in_progress', assignee_id: operator.userId });
    expect(assigned.body).toMatchObject({ status: 'in_progress', assignee_id: operator.userId });
    expect((await respond(org, draft.incident_id, { status: 'on_hold', note: 'waiting for police' })).body.status).toBe(
      'on_hold',
    );
    expect((await respond(org, draft.incident_id, { status: 'resolved' })).status).toBe(422);
    const resolved = await respond(org, draft.incident_id, {
      status: 'resolved',
      resolution: 'true_positive',
      resolution_notes: 'Fence repaired',
    });
    expect(resolved.body).toMatchObject({
      status: 'resolved',
      resolution: 'true_positive',
      resolution_notes: 'Fence repaired',
    });
    expect(resolved.body.time_to_acknowledge_seconds).toBeGreaterThanOrEqual(0);
    expect(resolved.body.time_to_resolve_seconds).toBeGreaterThanOrEqual(resolved.body.time_to_acknowledge_seconds);
    expect((await respond(org, draft.incident_id, { status: 'closed' })).body.status).toBe('closed');
    const after = await respond(org, draft.incident_id, { status: 'in_progress' });
    expect(after.status).toBe(409);
    expect(after.body.detail).toMatch(/closed cannot become in_progress/);
    const read = await call('GET', `/api/v1/incidents/${draft.incident_id}`, { token: org.token });
    expect(read.body.status).toBe('closed');
    expect(read.body.transitions.map((t: { to: string }) => t.to)).toEqual([
      'draft',
      'confirmed',
      'acknowledged',
      'in_progress',
      'on_hold',
      'resolved',
      'closed',
    ]);
  });

  it("the assignee must be a user of the same tenant; another tenant's user is unknown here", async () => {
    const a = await registerTenant('Inc');
    const b = await registerTenant('Other');
    const incident = await open(a);
    const res = await respond(a, incident.incident_id, { assignee_id: b.userId });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'User not found' });
  });

  it("another tenant's environment cannot be named when opening one", async () => {
    const a = await registerTenant('Inc');
    const b = await registerTenant('Other');
    const env = (await call('POST', '/api/v1/environments', { token: a.token, body: { name: 'Port', type: 'port' } }))
      .body;
    const res = await call('POST', '/api/v1/incidents', {
      token: b.token,
      body: { title: 'x', environment_id: env.environment_id },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Environment not found' });
  });
});

describe('incidents.acknowledge', () => {
  it('a link works once, for its incident only; a bad token is 403 and changes nothing', async () => {
    const org = await registerTenant('Inc');
    const first = await open(org);
    const second = await open(org);
    const path = await ackPathOf(org.tenantId, first.incident_id);
    const token = new URL(path, 'http://x').searchParams.get('token')!;
    const other = await call('POST', `/api/v1/incidents/${second.incident_id}/acknowledge`, { query: { token } });
    expect(other.status).toBe(403);
    expect(
      (
        await call('POST', `/api/v1/incidents/${first.incident_id}/acknowledge`, {
          query: { token: `${token.slice(0, -2)}xx` },
        })
      ).status,
    ).toBe(403);
    expect((await call('POST', path)).status).toBe(200);
    const again = await call('POST', path);
    expect(again.status).toBe(403);
    expect(again.body.detail).toMatch(/used already or have expired/);
    const untouched = await call('GET', `/api/v1/incidents/${second.incident_id}`, { token: org.token });
    expect(untouched.body.status).toBe('confirmed');
    const timeline = await call('GET', `/api/v1/replay/${first.incident_id}`, { token: org.token });
    expect(timeline.body.timeline.find((e: { kind: string }) => e.kind === 'acknowledged')).toMatchObject({
      by: 'token',
      detail: { addressed_to: ['OPERATOR'] },
    });
  });
});

describe("notifications below the tenant's threshold", () => {
  it('an incident under notifications.min_severity sends no notification and no link; at the threshold it does', async () => {
    const org = await registerTenant('Inc');
    const set = await call('PATCH', `/api/v1/tenants/${org.tenantId}/config`, {
      token: await asAdmin(),
      body: { notifications: { min_severity: 'high' } },
    });
    expect(set.status).toBe(200);
    const medium = await open(org, { severity: 'medium' });
    const high = await open(org, { severity: 'high' });
    const notes = (await announced(org.tenantId)).filter((m) => m.detail_type === 'incident.notification');
    expect(notes.map((n) => n.detail.incident_id)).toEqual([high.incident_id]);
    // The quiet one is still on the bus and on its SLA clock, and operators acknowledge it by hand.
    expect(
      (await announced(org.tenantId)).some(
        (m) => m.detail_type === 'incident.created' && m.detail.incident_id === medium.incident_id,
      ),
    ).toBe(true);
    expect(medium.sla_due_at).toBeTruthy();
    const ack = await respond(org, medium.incident_id, { status: 'acknowledged' });
    expect(ack.status).toBe(200);
  });
});

describe('no empty-body ceremony', () => {
  it('a request whose body fields are all optional may send no body (escalate), one with a required field may not', async () => {
    const org = await registerTenant('Inc');
    const incident = await open(org, { severity: 'critical' });
    const bare = await call('PATCH', `/api/v1/incidents/${incident.incident_id}/escalate`, { token: org.token });
    expect(bare.status, bare.text).toBe(200);
    expect(bare.body.escalation_level).toBe(1);
    const missing = await call('POST', '/api/v1/incidents', { token: org.token });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]).toMatchObject({ loc: ['body'], type: 'missing' });
  });
});

describe('incidents.escalate', () => {
  it('raises the level one at a time up to the policy, then 409', async () => {
    const org = await registerTenant('Inc');
    const incident = await open(org);
    for (const level of [1, 2, 3]) {
      const res = await call('PATCH', `/api/v1/incidents/${incident.incident_id}/escalate`, {
        token: org.token,
        body: { reason: 'no answer' },
      });
      expect(res.status).toBe(200);
      expect(res.body.escalation_level).toBe(level);
    }
    const past = await call('PATCH', `/api/v1/incidents/${incident.incident_id}/escalate`, {
      token: org.token,
      body: {},
    });
    expect(past.status).toBe(409);
    const escalations = (await announced(org.tenantId)).filter((m) => m.detail_type === 'incident.escalated');
    expect(escalations).toHaveLength(3);
    // Nobody acknowledged: each level is told with a link of its own (the confirmation's was level 0).
    const notes = (await announced(org.tenantId)).filter((m) => m.detail_type === 'incident.notification');
    expect(notes.map((n) => [n.detail.escalation_level, n.detail.notify_roles])).toEqual([
      [0, ['OPERATOR']],
      [1, ['OPERATOR']],
      [2, ['TENANT_ADMIN']],
      [3, ['TENANT_ADMIN']],
    ]);
    const sent = await sentNotifications(incident.incident_id, 4);
    expect(sent.map((n) => n.escalation_level)).toEqual([0, 1, 2, 3]);
    expect(new Set(sent.map((n) => n.acknowledge_path)).size).toBe(4);
  });

  it('restarts the wait of the level it reaches; the top level has no next; an acknowledged incident gets no new link', async () => {
    const org = await registerTenant('Inc');
    const incident = await open(org, { severity: 'critical' });
    expect(incident.next_escalation_at).toBe(incident.sla_due_at);
    const first = await call('PATCH', `/api/v1/incidents/${incident.incident_id}/escalate`, {
      token: org.token,
      body: {},
    });
    // Level 1 waits 15 minutes (the default policy) before level 2.
    expect(Date.parse(first.body.next_escalation_at) - Date.parse(first.body.updated_at)).toBe(15 * 60_000);
    expect(first.body.sla_due_at).toBe(incident.sla_due_at);

    const ack = await call('POST', await ackPathOf(org.tenantId, incident.incident_id));
    expect(ack.status).toBe(200);
    expect(ack.body).toMatchObject({ status: 'acknowledged', next_escalation_at: null, sla_breached_at: null });
    const later = await call('PATCH', `/api/v1/incidents/${incident.incident_id}/escalate`, {
      token: org.token,
      body: {},
    });
    expect(later.body).toMatchObject({ escalation_level: 2, next_escalation_at: null });
    const notes = (await announced(org.tenantId)).filter(
      (m) => m.detail_type === 'incident.notification' && m.detail.incident_id === incident.incident_id,
    );
    expect(notes).toHaveLength(2);
  });
});

describe('incidents.list', () => {
  it('filters by status and severity, sorts, and pages with a total', async () => {
    const org = await registerTenant('Inc');
    const low = await open(org, { title: 'Low', severity: 'low' });
    const critical = await open(org, { title: 'Critical', severity: 'critical' });
    const draft = await open(org, { title: 'Draft', severity: 'medium', status: 'draft' });
    const list = (query: Record<string, string | number>) =>
      call('GET', '/api/v1/incidents', { token: org.token, query });
    const newest = await list({});
    expect(newest.body).toMatchObject({ total: 3, limit: 50, offset: 0 });
    expect(newest.body.items.map((i: { incident_id: string }) => i.incident_id)).toEqual([
      draft.incident_id,
      critical.incident_id,
      low.incident_id,
    ]);
    const bySeverity = await list({ sort_by: 'severity', sort_order: 'desc' });
    expect(bySeverity.body.items.map((i: { title: string }) => i.title)).toEqual(['Critical', 'Draft', 'Low']);
    expect((await list({ status: 'draft' })).body.items.map((i: { title: string }) => i.title)).toEqual(['Draft']);
    expect((await list({ severity: 'critical' })).body.total).toBe(1);
    const page = await list({ limit: 1, offset: 1 });
    expect(page.body).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.body.items).toHaveLength(1);
    expect((await list({ sort_by: 'title' })).status).toBe(422);
  });
});

describe('incidents.get', () => {
  it("another tenant's incident is 404", async () => {
    const a = await registerTenant('Inc');
    const b = await registerTenant('Other');
    const incident = await open(a);
    const res = await call('GET', `/api/v1/incidents/${incident.incident_id}`, { token: b.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Incident not found' });
  });
});

describe('feed.list', () => {
  it('shows recent activity newest first, limit 1..100 default 30', async () => {
    const org = await registerTenant('Inc');
    const incident = await open(org);
    await call('PATCH', `/api/v1/incidents/${incident.incident_id}/escalate`, { token: org.token, body: {} });
    const feed = await call('GET', '/api/v1/feed', { token: org.token });
    expect(feed.body.map((e: { kind: string }) => e.kind)).toEqual(['incident.escalated', 'incident.created']);
    expect((await call('GET', '/api/v1/feed', { token: org.token, query: { limit: 101 } })).status).toBe(422);
    expect((await call('GET', '/api/v1/feed', { token: org.token, query: { limit: 1 } })).body).toHaveLength(1);
  });
});

describe('replay.timeline', () => {
  it('lists every transition, note, assignment and escalation in order with who and when', async () => {
    const org = await registerTenant('Inc');
    const incident = await open(org);
    await respond(org, incident.incident_id, { note: 'Guard on the way' });
    await respond(org, incident.incident_id, { assignee_id: org.userId });
    await call('PATCH', `/api/v1/incidents/${incident.incident_id}/escalate`, {
      token: org.token,
      body: { reason: 'big' },
    });
    const res = await call('GET', `/api/v1/replay/${incident.incident_id}`, { token: org.token });
    expect(res.body.timeline.map((e: { kind: string }) => e.kind)).toEqual([
      'status',
      'status',
      'note',
      'assigned',
      'escalated',
    ]);
    expect(res.body.timeline[2]).toMatchObject({ by: org.userId, detail: { text: 'Guard on the way' } });
  });
});

describe('replay.snapshot', () => {
  it('the snapshot at a time between two transitions shows the state of that moment', async () => {
    const org = await registerTenant('Inc');
    const incident = await open(org);
    await new Promise((r) => setTimeout(r, 20));
    const between = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    await respond(org, incident.incident_id, { status: 'in_progress', assignee_id: org.userId });
    const then = await call('GET', `/api/v1/replay/${incident.incident_id}/snapshot`, {
      token: org.token,
      query: { at: between },
    });
    expect(then.body).toMatchObject({ status: 'confirmed', assignee_id: null, escalation_level: 0 });
    const nowSnap = await call('GET', `/api/v1/replay/${incident.incident_id}/snapshot`, { token: org.token });
    expect(nowSnap.body).toMatchObject({ status: 'in_progress', assignee_id: org.userId });
    const before = await call('GET', `/api/v1/replay/${incident.incident_id}/snapshot`, {
      token: org.token,
      query: { at: '2000-01-01T00:00:00Z' },
    });
    expect(before.status).toBe(404);
  });
});

describe('incidents from the event pipeline', () => {
  it("an event scoring at or above the tenant's threshold opens an incident linked both ways, once", async () => {
    const org = await registerTenant('Inc');
    await call('PATCH', `/api/v1/tenants/${org.tenantId}/config`, {
      token: await asAdmin(),
      body: { incident_threshold: 0.5 },
    });
    const env = (
      await call('POST', '/api/v1/environments', { token: org.token, body: { name: 'Depot', type: 'site' } })
    ).body;
    await call('POST', '/api/v1/zones', {
      token: org.token,
      body: {
        environment_id: env.environment_id,
        name: 'Vault',
        security_level: 5,
        geofence: { type: 'Circle', center: [10.75, 59.91], radius_m: 100 },
      },
    });
    const body = {
      event_id: v7(),
      type: 'intrusion.detected',
      environment_id: env.environment_id,
      location: { lat: 59.91, lon: 10.75 },
      severity: 'critical',
    };
    const event = (await call('POST', '/api/v1/events', { token: org.token, body })).body;
    expect(event.threat_score).toBeGreaterThanOrEqual(0.5);
    expect(event.incident_id).toBeTruthy();
    const incident = (await call('GET', `/api/v1/incidents/${event.incident_id}`, { token: org.token })).body;
    expect(incident).toMatchObject({
      source: 'event',
      event_ids: [event.event_id],
      status: 'confirmed',
      type: 'intrusion.detected',
    });
    const retry = (await call('POST', '/api/v1/events', { token: org.token, body })).body;
    expect(retry.incident_id).toBe(event.incident_id);
    expect((await call('GET', '/api/v1/incidents', { token: org.token })).body.total).toBe(1);
    const quiet = (
      await call('POST', '/api/v1/events', {
        token: org.token,
        body: { type: 'sensor.reading', payload: { value: 1 } },
      })
    ).body;
    expect(quiet.incident_id).toBeNull();
  });
});

describe('incidents.publicKey', () => {
  it('is shown once per rotation; rotating retires the old key', async () => {
    const org = await registerTenant('Inc');
    const first = await call('POST', '/api/v1/incidents/public-key', { token: org.token });
    expect(first.status).toBe(201);
    expect(first.body.public_report_key).toMatch(/^prk_/);
    expect(first.body.public_report_key).not.toContain(org.tenantId.replace(/-/g, ''));
    const second = await call('POST', '/api/v1/incidents/public-key', { token: org.token });
    const report = { title: 'Open gate', description: 'The side gate is open' };
    expect(
      (
        await call('POST', '/api/v1/incidents/public', {
          body: { ...report, report_key: first.body.public_report_key },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call('POST', '/api/v1/incidents/public', {
          body: { ...report, report_key: second.body.public_report_key },
        })
      ).status,
    ).toBe(201);
  });
});

describe('incidents.public', () => {
  it('an anonymous report becomes a draft of the tenant the key names; the reporter address is stored nowhere', async () => {
    const org = await registerTenant('Inc');
    const key = (await call('POST', '/api/v1/incidents/public-key', { token: org.token })).body.public_report_key;
    const ip = '198.51.100.77';
    const res = await call('POST', '/api/v1/incidents/public', {
      body: {
        report_key: key,
        title: 'Drone over the yard',
        description: 'A small drone circling',
        location: { lat: 59.9, lon: 10.7 },
      },
      headers: { 'x-forwarded-for': ip },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      incident_id: expect.any(String),
      title: 'Drone over the yard',
      status: 'draft',
      created_at: expect.any(String),
    });
    expect(res.text).not.toContain(org.tenantId);
    const incident = await call('GET', `/api/v1/incidents/${res.body.incident_id}`, { token: org.token });
    expect(incident.body).toMatchObject({ status: 'draft', source: 'public', tenant_id: org.tenantId });
    expect(JSON.stringify(incident.body)).not.toContain(ip);
    const audit = await auditEntriesOf(org.tenantId);
    const created = audit.find((e) => e.resource_id === res.body.incident_id)!;
    expect(created).toMatchObject({ action: 'incident.created', source_ip: 'anonymous', user_id: null });
    expect(JSON.stringify(audit)).not.toContain(ip);
  });

  it('a report located inside a zone is in that zone and its environment; one outside is in none', async () => {
    const org = await registerTenant('IncZone');
    const env = await newEnvironment(org);
    const zone = await newZone(org, env.environment_id, { name: 'Quay 4' });
    const key = (await call('POST', '/api/v1/incidents/public-key', { token: org.token })).body.public_report_key;
    const report = (location: { lat: number; lon: number }) =>
      call('POST', '/api/v1/incidents/public', {
        body: { report_key: key, title: 'Someone on the quay', description: 'At night', location },
      });
    const inside = await report({ lat: 59.905, lon: 10.705 });
    const outside = await report({ lat: 40.0, lon: -30.0 });
    const read = async (id: string) => (await call('GET', `/api/v1/incidents/${id}`, { token: org.token })).body;
    expect(await read(inside.body.incident_id)).toMatchObject({
      environment_id: env.environment_id,
      zone_ids: [zone.zone_id],
    });
    expect(await read(outside.body.incident_id)).toMatchObject({ environment_id: null, zone_ids: [] });
  });

  it('takes the key under the name it is shown with, public_report_key, as well; one of the two, not both', async () => {
    const org = await registerTenant('IncKeyName');
    const key = (await call('POST', '/api/v1/incidents/public-key', { token: org.token })).body.public_report_key;
    const send = (body: Record<string, unknown>) =>
      call('POST', '/api/v1/incidents/public', { body: { title: 'Open gate', description: 'Side gate', ...body } });
    expect((await send({ public_report_key: key })).status).toBe(201);
    expect((await send({ report_key: key })).status).toBe(201);
    const both = await send({ report_key: key, public_report_key: key });
    expect(both.status).toBe(422);
    expect(both.body.detail).toEqual([
      {
        loc: ['body'],
        msg: 'gives more than one of the alternatives it takes one of: send only one',
        type: 'one_of',
      },
    ]);
    const neither = await send({});
    expect(neither.status).toBe(422);
    expect(neither.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toEqual([
      'body.report_key',
      'body.public_report_key',
    ]);
  });

  it('the 11th report from one address within a minute is 429 with Retry-After; another address still gets 201', async () => {
    const org = await registerTenant('Inc');
    const key = (await call('POST', '/api/v1/incidents/public-key', { token: org.token })).body.public_report_key;
    for (let attempt = 0; attempt < 2; attempt++) {
      const ip = `203.0.113.${Math.floor(Math.random() * 200) + 1}`;
      const results = [];
      for (let i = 0; i < 11; i++) {
        results.push(
          await call('POST', '/api/v1/incidents/public', {
            body: { report_key: key, title: `Report ${i}`, description: 'x' },
            headers: { 'x-forwarded-for': ip },
          }),
        );
      }
      if (new Set(results.map((r) => r.headers.get('x-ratelimit-reset'))).size > 1) continue;
      expect(results.slice(0, 10).map((r) => r.status)).toEqual(Array(10).fill(201));
      expect(results[10]!.status).toBe(429);
      expect(Number(results[10]!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(results[10]!.headers.get('x-ratelimit-limit')).toBe('10');
      const other = await call('POST', '/api/v1/incidents/public', {
        body: { report_key: key, title: 'Other', description: 'x' },
        headers: { 'x-forwarded-for': '203.0.113.250' },
      });
      expect(other.status).toBe(201);
      return;
    }
    throw new Error('the rate-limit window turned during both bursts');
  });

  it('an unknown key is 404 and stores nothing', async () => {
    const res = await call('POST', '/api/v1/incidents/public', {
      body: { report_key: `prk_${'a'.repeat(32)}`, title: 'x', description: 'y' },
    });
    expect(res.status).toBe(404);
  });
});
