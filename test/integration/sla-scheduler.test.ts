/**
 * The SLA scheduler (worker `sla-escalation`) against the run's stack: incidents are opened with
 * this process's clock moved back, then the worker's handler runs with the clock at a chosen past
 * moment, so it sees only the timers of this file's incidents (everyone else's are due in the
 * future). What it did is read back through the HTTP API, the outbox and the table.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler } from '../../functions/workers/sla-escalation.js';
import { db, TABLE } from '../../shared/db/client.js';
import { SLA_TIMERS_PK } from '../../shared/db/keys.js';
import { openIncident, type IncidentView } from '../../shared/domain/incidents/incidents.js';
import { workerContext } from '../../shared/local/lambda-context.js';
import { workerById } from '../../shared/workers.js';
import { atTime } from '../support/clock.js';
import { ackPathOf, sentNotifications } from '../support/notifications.js';
import { asAdmin, call, registerTenant, type RegisteredTenant } from '../support/api.js';
import { actorOf, auditEntriesOf, outboxOf } from '../support/seed.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';

const MINUTE = 60_000;
const worker = workerById('sla-escalation');

/** Runs `work` with this process's clock (Date only) set `minutesAgo` minutes back. */
const minutesAgo = <T>(minutes: number, work: () => Promise<T>): Promise<T> =>
  atTime(Date.now() - minutes * MINUTE, work);

const openCritical = (org: RegisteredTenant, ago: number): Promise<IncidentView> =>
  minutesAgo(ago, () =>
    openIncident(actorOf(org), systemTenant(org.tenantId), {
      title: 'Gate 4 forced open',
      severity: 'critical',
      status: 'confirmed',
    }),
  );

/** One run of the worker, as EventBridge's schedule would start it, `ago` minutes back. */
const runScheduler = (ago: number) =>
  minutesAgo(ago, () =>
    handler({ 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} }, workerContext(worker, 'us-east-1')),
  );

const get = async (org: RegisteredTenant, id: string) => {
  const res = await call('GET', `/api/v1/incidents/${id}`, { token: org.token });
  expect(res.status).toBe(200);
  return res.body;
};

const announced = async (tenantId: string, incidentId: string) =>
  (await outboxOf(tenantId)).filter((m) => m.detail.incident_id === incidentId);

async function timersOf(incidentId: string): Promise<string[]> {
  const out = await db.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk',
      FilterExpression: 'incident_id = :id',
      ExpressionAttributeValues: { ':pk': SLA_TIMERS_PK, ':id': incidentId },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map((i) => i.wake_at as string);
}

describe('worker sla-escalation', () => {
  it('breaches and escalates an incident nobody acknowledged, tells the next level with a new link that works', async () => {
    const org = await registerTenant('Sla');
    // Critical: 15 minutes to acknowledge. Opened 30 minutes ago, so due 15 minutes ago.
    const opened = await openCritical(org, 30);
    expect(await timersOf(opened.incident_id)).toEqual([opened.sla_due_at]);

    const result = await runScheduler(10);
    expect(result).toMatchObject({ breached: expect.any(Number), escalated: expect.any(Number), failed: 0 });
    expect(result.breached).toBeGreaterThanOrEqual(1);

    const incident = await get(org, opened.incident_id);
    expect(incident).toMatchObject({ status: 'confirmed', escalation_level: 1, sla_breached_at: opened.sla_due_at });
    // Level 1 waits its 15 minutes (default policy) from the run, 10 minutes ago.
    const ranAt = Date.parse(incident.updated_at);
    expect(Date.parse(incident.next_escalation_at) - ranAt).toBe(15 * MINUTE);
    expect(await timersOf(opened.incident_id)).toEqual([incident.next_escalation_at]);

    const timeline = (await call('GET', `/api/v1/replay/${opened.incident_id}`, { token: org.token })).body
      .timeline as { kind: string; by: string; detail: any }[];
    expect(timeline.map((e) => [e.kind, e.by])).toEqual([
      ['status', org.userId],
      ['status', org.userId],
      ['sla_breached', 'system'],
      ['escalated', 'system'],
    ]);
    expect(timeline[3]!.detail).toMatchObject({
      level: 1,
      notify_roles: ['OPERATOR'],
      reason: expect.stringContaining('SLA'),
    });

    const messages = await announced(org.tenantId, opened.incident_id);
    // Messages of one transaction share a millisecond: their order among themselves is not kept.
    expect(messages.map((m) => m.detail_type).sort()).toEqual([
      'incident.created',
      'incident.escalated',
      'incident.notification',
      'incident.notification',
      'incident.sla_breached',
    ]);
    const breach = messages.find((m) => m.detail_type === 'incident.sla_breached')!;
    expect(breach.detail).toMatchObject({
      sla_due_at: opened.sla_due_at,
      sla_breached_at: opened.sla_due_at,
      escalation_level: 1,
    });
    const notifications = messages.filter((m) => m.detail_type === 'incident.notification');
    const first = notifications.find((m) => m.detail.escalation_level === 0);
    const second = notifications.find((m) => m.detail.escalation_level === 1);
    expect(second!.detail).toMatchObject({ notify_roles: ['OPERATOR'] });
    expect(first).toBeDefined();
    // Each level's link is minted when it is sent to people: two notifications, two links.
    const sent = await sentNotifications(opened.incident_id, 2);
    expect(sent.map((n) => n.escalation_level)).toEqual([0, 1]);
    expect(sent[1]!.acknowledge_path).not.toBe(sent[0]!.acknowledge_path);

    const audit = (await auditEntriesOf(org.tenantId))
      .filter((e) => e.resource_id === opened.incident_id)
      .map((e) => [e.action, e.user_id]);
    expect(audit).toEqual(
      expect.arrayContaining([
        ['incident.sla_breached', null],
        ['incident.escalated', null],
      ]),
    );

    // The escalation's link acknowledges; the clock stops and the timer goes.
    const ack = await call('POST', sent[1]!.acknowledge_path);
    expect(ack.status).toBe(200);
    expect(ack.body).toMatchObject({
      status: 'acknowledged',
      next_escalation_at: null,
      sla_breached_at: opened.sla_due_at,
    });
    expect(await timersOf(opened.incident_id)).toEqual([]);
    await runScheduler(0);
    expect((await get(org, opened.incident_id)).escalation_level).toBe(1);
  });

  it('walks up the levels run after run while nobody acknowledges, and stops at the top', async () => {
    const org = await registerTenant('Sla');
    const opened = await openCritical(org, 300);
    const levels: [number, string | null][] = [];
    // Due at -285; level 1 waits 15 minutes, level 2 waits 30; level 3 is the top.
    for (const ago of [280, 264, 233, 200]) {
      await runScheduler(ago);
      const incident = await get(org, opened.incident_id);
      levels.push([incident.escalation_level, incident.next_escalation_at === null ? null : 'set']);
    }
    expect(levels).toEqual([
      [1, 'set'],
      [2, 'set'],
      [3, null],
      [3, null],
    ]);
    expect(await timersOf(opened.incident_id)).toEqual([]);
    const kinds = (await announced(org.tenantId, opened.incident_id)).map((m) => m.detail_type);
    expect(kinds.filter((k) => k === 'incident.sla_breached')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'incident.escalated')).toHaveLength(3);
    // The confirmation's and one per level.
    expect(kinds.filter((k) => k === 'incident.notification')).toHaveLength(4);
  });

  it('a policy shrunk below the level an incident reached ends its wait instead of failing the run', async () => {
    const org = await registerTenant('Sla');
    const opened = await openCritical(org, 300);
    await runScheduler(280);
    await runScheduler(264);
    expect((await get(org, opened.incident_id)).escalation_level).toBe(2);
    const shrink = await call('PATCH', `/api/v1/tenants/${org.tenantId}/config`, {
      token: await asAdmin(),
      body: {
        escalation_policy: {
          levels: [
            { after_minutes: 15, notify_roles: ['OPERATOR'] },
            { after_minutes: 30, notify_roles: ['TENANT_ADMIN'] },
          ],
        },
      },
    });
    expect(shrink.status).toBe(200);
    const result = await runScheduler(233);
    expect(result.failed).toBe(0);
    expect(await get(org, opened.incident_id)).toMatchObject({
      escalation_level: 2,
      next_escalation_at: null,
      status: 'confirmed',
    });
    expect(await timersOf(opened.incident_id)).toEqual([]);
  });

  it('an incident acknowledged in time never breaches; one acknowledged late records the breach, and neither escalates', async () => {
    const org = await registerTenant('Sla');
    const ackPath = (id: string) => ackPathOf(id);

    const inTime = await openCritical(org, 5);
    const late = await openCritical(org, 30);
    for (const incident of [inTime, late])
      expect((await call('POST', await ackPath(incident.incident_id))).status).toBe(200);
    expect(await timersOf(inTime.incident_id)).toEqual([]);
    expect(await timersOf(late.incident_id)).toEqual([]);

    await runScheduler(10);
    expect(await get(org, inTime.incident_id)).toMatchObject({
      status: 'acknowledged',
      escalation_level: 0,
      sla_breached_at: null,
      next_escalation_at: null,
    });
    expect(await get(org, late.incident_id)).toMatchObject({
      status: 'acknowledged',
      escalation_level: 0,
      sla_breached_at: late.sla_due_at,
    });
    expect((await announced(org.tenantId, late.incident_id)).map((m) => m.detail_type)).not.toContain(
      'incident.escalated',
    );
  });

  it('a timer whose incident moved on is removed, not acted on', async () => {
    const org = await registerTenant('Sla');
    const opened = await openCritical(org, 40);
    // Cancelled through the API (its change removes the timer), then a stale copy of the timer is
    // put back, as a run that read it before the cancellation would still hold it.
    const cancel = await call('PATCH', `/api/v1/incidents/${opened.incident_id}/respond`, {
      token: org.token,
      body: { status: 'cancelled' },
    });
    expect(cancel.status).toBe(200);
    expect(await timersOf(opened.incident_id)).toEqual([]);
    const { putSlaTimer } = await import('../../shared/db/sla-timers.js');
    const { transactWrite } = await import('../../shared/db/transact.js');
    await transactWrite([
      putSlaTimer({ wake_at: opened.sla_due_at!, tenant_id: org.tenantId, incident_id: opened.incident_id }),
    ]);

    const result = await runScheduler(20);
    expect(result.stale).toBeGreaterThanOrEqual(1);
    expect(await timersOf(opened.incident_id)).toEqual([]);
    expect(await get(org, opened.incident_id)).toMatchObject({ status: 'cancelled', escalation_level: 0 });
  });
});
