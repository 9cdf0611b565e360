/** Events and incidents linked both ways, from either side, and never half-linked. */
import { describe, expect, it } from 'vitest';
import { call, registerTenant, type RegisteredTenant } from '../support/api.js';

async function newEvent(org: RegisteredTenant, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/v1/events', {
    token: org.token,
    body: { type: 'motion.detected', severity: 'low', ...body },
  });
  expect(res.status).toBe(201);
  return res.body as { event_id: string; incident_id: string | null };
}

async function newIncident(org: RegisteredTenant, body: Record<string, unknown> = {}) {
  return call('POST', '/api/v1/incidents', {
    token: org.token,
    body: { title: 'Gate forced', severity: 'high', ...body },
  });
}

const incident = async (org: RegisteredTenant, id: string) =>
  (await call('GET', `/api/v1/incidents/${id}`, { token: org.token })).body;
const event = async (org: RegisteredTenant, id: string) =>
  (await call('GET', `/api/v1/events/${id}`, { token: org.token })).body;
const link = (org: RegisteredTenant, eventId: string, incidentId: string | null) =>
  call('PATCH', `/api/v1/events/${eventId}/processed`, {
    token: org.token,
    body: { processed: true, incident_id: incidentId },
  });
const kinds = async (org: RegisteredTenant, id: string) =>
  (await call('GET', `/api/v1/replay/${id}`, { token: org.token })).body.timeline
    .filter((e: { kind: string }) => e.kind === 'linked' || e.kind === 'unlinked')
    .map((e: { kind: string; detail: { event_id: string } }) => `${e.kind} ${e.detail.event_id}`);

describe('linking from the event side (PATCH /events/{id}/processed)', () => {
  it('links both ways, moves from one incident to another, and unlinks with null', async () => {
    const org = await registerTenant('Links');
    const e = await newEvent(org);
    const a = (await newIncident(org)).body;
    const b = (await newIncident(org)).body;

    expect((await link(org, e.event_id, a.incident_id)).body.incident_id).toBe(a.incident_id);
    expect((await incident(org, a.incident_id)).event_ids).toEqual([e.event_id]);

    expect((await link(org, e.event_id, b.incident_id)).status).toBe(200);
    expect((await incident(org, a.incident_id)).event_ids).toEqual([]);
    expect((await incident(org, b.incident_id)).event_ids).toEqual([e.event_id]);
    expect(await kinds(org, a.incident_id)).toEqual([`linked ${e.event_id}`, `unlinked ${e.event_id}`]);

    expect((await link(org, e.event_id, null)).body.incident_id).toBeNull();
    expect((await incident(org, b.incident_id)).event_ids).toEqual([]);
    expect(await kinds(org, b.incident_id)).toEqual([`linked ${e.event_id}`, `unlinked ${e.event_id}`]);
  });

  it("another tenant's incident is 404 and links nothing", async () => {
    const org = await registerTenant('LinksA');
    const other = await registerTenant('LinksB');
    const e = await newEvent(org);
    const theirs = (await newIncident(other)).body;
    const res = await link(org, e.event_id, theirs.incident_id);
    expect(res.status).toBe(404);
    expect((await event(org, e.event_id)).incident_id).toBeNull();
    expect((await incident(other, theirs.incident_id)).event_ids).toEqual([]);
  });

  it('two operators moving one event at once leave it in exactly one incident, which lists it', async () => {
    const org = await registerTenant('LinksRace');
    const e = await newEvent(org);
    const targets = await Promise.all([1, 2, 3].map(async () => (await newIncident(org)).body.incident_id as string));
    const answers = await Promise.all(targets.map((id) => link(org, e.event_id, id)));
    expect(answers.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const final = (await event(org, e.event_id)).incident_id;
    expect(targets).toContain(final);
    for (const id of targets) {
      expect((await incident(org, id)).event_ids).toEqual(id === final ? [e.event_id] : []);
    }
  });
});

describe('linking from the incident side (POST /incidents with event_ids)', () => {
  it('opens an incident listing the events, each of which names it', async () => {
    const org = await registerTenant('Opens');
    const [e1, e2] = [await newEvent(org), await newEvent(org)];
    const res = await newIncident(org, { event_ids: [e1.event_id, e2.event_id] });
    expect(res.status).toBe(201);
    expect(res.body.event_ids).toEqual([e1.event_id, e2.event_id]);
    expect((await event(org, e1.event_id)).incident_id).toBe(res.body.incident_id);
    expect((await event(org, e2.event_id)).incident_id).toBe(res.body.incident_id);
    expect(await kinds(org, res.body.incident_id)).toEqual([`linked ${e1.event_id}`, `linked ${e2.event_id}`]);
  });

  it("an unknown or another tenant's event is 404, one already in an incident 409; neither opens anything", async () => {
    const org = await registerTenant('OpensBad');
    const other = await registerTenant('OpensOther');
    const mine = await newEvent(org);
    const theirs = await newEvent(other);
    const before = (await call('GET', '/api/v1/incidents', { token: org.token })).body.total;

    const foreign = await newIncident(org, { event_ids: [mine.event_id, theirs.event_id] });
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe('Event not found (event_ids[1])');

    const first = (await newIncident(org, { event_ids: [mine.event_id] })).body;
    const again = await newIncident(org, { event_ids: [mine.event_id] });
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain(first.incident_id);

    expect((await call('GET', '/api/v1/incidents', { token: org.token })).body.total).toBe(before + 1);
    expect((await event(org, mine.event_id)).incident_id).toBe(first.incident_id);
    expect((await event(other, theirs.event_id)).incident_id).toBeNull();
  });
});

describe('incidents the pipeline opens', () => {
  it("keep the reporter's severity when it is above the score's, and list the event in the timeline", async () => {
    const org = await registerTenant('Reporter');
    await call('PATCH', '/api/v1/portal/settings', { token: org.token, body: { incident_threshold: 0.01 } });
    const e = await newEvent(org, { type: 'intrusion.detected', severity: 'critical' });
    expect(e.incident_id).toBeTruthy();
    const opened = await incident(org, e.incident_id!);
    expect(opened.severity).toBe('critical');
    expect(opened.event_ids).toEqual([e.event_id]);
    expect(await kinds(org, e.incident_id!)).toEqual([`linked ${e.event_id}`]);
    // A reporter's low severity does not lower what the score says.
    const low = await newEvent(org, { type: 'intrusion.detected', severity: 'low' });
    expect((await incident(org, low.incident_id!)).severity).toBe('medium');
  });
});
