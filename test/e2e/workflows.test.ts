/**
 * Workflows end to end against the run's stack: created through the API, run by the stack's own
 * workflow runner on the bus messages that trigger them, telling a real HTTP receiver (an
 * integration of kind `http`, signed), changing incidents through the product's operations.
 *
 * Two things the run's stack does not do by itself are done here with the real handlers:
 * - a redelivery: the bus message (read back from the local bus's log) is put on this file's own
 *   `workflow-runs` queue and run by the runner's handler in this process, as SQS or EventBridge
 *   might hand it over again;
 * - the minute passing for a wait: the timers' handler runs with this process's clock moved on (the
 *   run's stack keeps its schedules off), and queues the runs due on this file's queue.
 */
import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { handler as runnerHandler } from '../../functions/workers/workflow-runner.js';
import { handler as timersHandler } from '../../functions/workers/workflow-timers.js';
import { useQueues } from '../../shared/adapters/queue.js';
import { installLocalAdapters } from '../../shared/local/compose.js';
import { checkSharedClients, runAsWorker } from '../../shared/local/iam-check.js';
import { workerContext } from '../../shared/local/lambda-context.js';
import { LocalQueues } from '../../shared/local/queue.js';
import { startQueueWorkers, type QueueWorkers } from '../../shared/local/queue-workers.js';
import { workerById } from '../../shared/workers.js';
import { getWorkflow, putNewRunItem } from '../../shared/db/workflows.js';
import { transactWrite } from '../../shared/db/transact.js';
import { newRun, safetyTimer } from '../../shared/domain/workflows/run-records.js';
import { newTimeId } from '../../shared/ids.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';
import { call, createUser, registerTenant, type RegisteredTenant } from '../support/api.js';
import { atTime } from '../support/clock.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { auditEntriesOf } from '../support/seed.js';
import { GATE, site, until } from '../support/threat-site.js';

let receiver: Receiver;
let queues: LocalQueues;
let runner: QueueWorkers;

beforeAll(async () => {
  await checkSharedClients();
  receiver = await startReceiver((path) => ({ status: path.startsWith('/down') ? 503 : 200, body: 'ok' }));
  await installLocalAdapters();
  // This file's own queue: what the handlers in this process queue (resumed runs) lands here.
  queues = new LocalQueues();
  useQueues(queues);
  runner = await startQueueWorkers({
    queues,
    region: 'us-east-1',
    workers: [workerById('workflow-runner')],
    handlers: { 'workflow-runner': runnerHandler },
    pollMs: 0,
  });
});
afterAll(async () => {
  await runner?.stop();
  await receiver?.close();
});

const post = (org: RegisteredTenant, path: string, body?: unknown) => call('POST', path, { token: org.token, body });
const get = (org: RegisteredTenant, path: string, query?: Record<string, string>) =>
  call('GET', path, { token: org.token, query });

async function integration(org: RegisteredTenant, path: string): Promise<{ id: string; secret: string }> {
  const res = await post(org, '/api/v1/integrations', {
    name: 'SOC receiver',
    kind: 'http',
    config: { url: `${receiver.url}${path}` },
  });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.integration_id, secret: res.body.secret };
}

async function workflow(org: RegisteredTenant, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await post(org, '/api/v1/workflows', body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const runsOf = async (org: RegisteredTenant, workflowId: string): Promise<Record<string, any>[]> => {
  const res = await get(org, `/api/v1/workflows/${workflowId}/runs`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

const hits = (path: string) => receiver.received.filter((r) => r.path === path);

/** The bus message of a stored event, as the local bus published it (its log). */
function busMessageOfEvent(eventId: string): Record<string, unknown> {
  const line = readFileSync(inject('localEnv').LOCAL_EVENT_BUS_LOG!, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>)
    .find((e) => e.source === 'gatehouse.events' && e.detail?.event_id === eventId);
  if (!line) throw new Error(`event ${eventId} is not in the bus log`);
  return line;
}

const ingestAt = async (
  org: RegisteredTenant,
  environmentId: string,
  type: string,
  location: { lat: number; lon: number },
  extra: Record<string, unknown> = {},
) => {
  const res = await post(org, '/api/v1/events', {
    type,
    environment_id: environmentId,
    location,
    description: 'fence line alarm',
    ...extra,
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { event_id: string; threat_score: number; matched_zone_ids: string[] };
};

describe('workflows.create', () => {
  it('runs "a perimeter breach scoring over 0.6 in zone Z raises a high incident and tells integration I" once per matching event, redelivered or not, and for no other zone', async () => {
    const org = await registerTenant('WfBreach');
    const { environmentId } = await site(org);
    // The fence line: a perimeter zone of the highest security level around the gate.
    const zone = await post(org, '/api/v1/zones', {
      environment_id: environmentId,
      name: 'North fence line',
      type: 'perimeter',
      security_level: 5,
      geofence: { type: 'Circle', center: [GATE.lon, GATE.lat], radius_m: 30 },
    });
    expect(zone.status, zone.text).toBe(201);
    const zoneId = zone.body.zone_id as string;
    const soc = await integration(org, `/soc-${org.tenantId}`);
    const created = await workflow(org, {
      name: 'Breach at the staff entrance',
      trigger: { type: 'event', event_types: ['perimeter.breach'] },
      conditions: {
        and: [{ '>': [{ var: 'event.threat_score' }, 0.6] }, { in: [zoneId, { var: 'event.matched_zone_ids' }] }],
      },
      actions: [
        { type: 'create_incident', title: 'Perimeter breach at the staff entrance', severity: 'high' },
        {
          type: 'notify_integration',
          integration_id: soc.id,
          message: 'Breach at the staff entrance: patrol dispatched',
        },
      ],
    });
    expect(created).toMatchObject({ enabled: true, seed_key: null, next_run_at: null, trigger: { type: 'event' } });
    expect((await auditEntriesOf(org.tenantId)).find((e) => e.action === 'workflow.created')).toMatchObject({
      resource_id: created.workflow_id,
      actor_type: 'user',
    });

    const inZone = await ingestAt(org, environmentId, 'perimeter.breach', GATE, { severity: 'high' });
    expect(inZone.matched_zone_ids).toContain(zoneId);
    expect(inZone.threat_score).toBeGreaterThan(0.6);
    // Far from the zone, and another type in the zone: no run.
    await ingestAt(
      org,
      environmentId,
      'perimeter.breach',
      { lat: GATE.lat + 0.05, lon: GATE.lon },
      { severity: 'high' },
    );
    await ingestAt(org, environmentId, 'motion.detected', GATE, { severity: 'high' });

    const [run] = await until(
      () => runsOf(org, created.workflow_id),
      (runs) => runs[0]?.status === 'succeeded',
      'the run to finish',
    );
    expect(run).toMatchObject({
      event_id: inZone.event_id,
      trigger: { type: 'perimeter.breach', message_id: inZone.event_id },
      error: null,
    });
    expect(run!.steps.map((s: Record<string, unknown>) => [s.type, s.status, s.attempts])).toEqual([
      ['create_incident', 'succeeded', 1],
      ['notify_integration', 'succeeded', 1],
    ]);
    const incidentId = run!.steps[0].result.incident_id as string;
    expect(run!.incident_id).toBe(incidentId);
    const incident = (await get(org, `/api/v1/incidents/${incidentId}`)).body;
    expect(incident).toMatchObject({
      title: 'Perimeter breach at the staff entrance',
      severity: 'high',
      status: 'confirmed',
      source: 'workflow',
      environment_id: environmentId,
    });
    // Audited as the workflow, not as a user.
    const opened = (await auditEntriesOf(org.tenantId)).find(
      (e) => e.action === 'incident.created' && e.resource_id === incidentId,
    );
    expect(opened).toMatchObject({
      actor_type: 'workflow',
      user_id: null,
      request_id: run!.run_id,
      changes: { workflow: { workflow_id: created.workflow_id, run_id: run!.run_id } },
    });

    // The integration got one signed message naming the run and the incident.
    const path = `/soc-${org.tenantId}`;
    expect(hits(path)).toHaveLength(1);
    const message = hits(path)[0]!;
    expect(() => new Webhook(soc.secret).verify(message.body, message.headers as Record<string, string>)).not.toThrow();
    expect(JSON.parse(message.body)).toMatchObject({
      type: 'workflow.notification',
      data: { workflow_id: created.workflow_id, run_id: run!.run_id, incident_id: incidentId },
    });

    // The bus hands the same message over again: nothing runs twice.
    await queues.send('workflow-runs', [{ body: JSON.stringify(busMessageOfEvent(inZone.event_id)) }]);
    await runner.drain();
    expect(await runsOf(org, created.workflow_id)).toHaveLength(1);
    expect(hits(path)).toHaveLength(1);
    const workflowIncidents = (await get(org, '/api/v1/incidents', { limit: '100' })).body.items.filter(
      (i: Record<string, unknown>) => i.source === 'workflow',
    );
    expect(workflowIncidents).toHaveLength(1);
  }, 60_000);

  it('refuses what would not run: fields of another step type, operators not allowed, steps without an incident, loops, and targets of another tenant', async () => {
    const org = await registerTenant('WfChecks');
    const other = await registerTenant('WfOther');
    const theirs = await integration(other, '/theirs');
    const base = { name: 'Checked', trigger: { type: 'event' }, actions: [{ type: 'create_incident', title: 'x' }] };
    const refused = async (body: Record<string, unknown>, status: number) => {
      const res = await post(org, '/api/v1/workflows', { ...base, ...body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      return res.body;
    };
    expect((await refused({ actions: [{ type: 'escalate', minutes: 5 }] }, 422)).detail[0].loc).toEqual([
      'body',
      'actions',
      0,
      'minutes',
    ]);
    expect((await refused({ actions: [{ type: 'wait' }] }, 422)).detail[0].loc).toEqual([
      'body',
      'actions',
      0,
      'minutes',
    ]);
    expect(
      (await refused({ actions: [{ type: 'create_incident', title: 'x', bogus: 1 }] }, 422)).detail[0].loc,
    ).toEqual(['body', 'actions', 0, 'bogus']);
    expect((await refused({ conditions: { log: 'hello' } }, 422)).detail[0].loc).toEqual(['body', 'conditions', 'log']);
    expect((await refused({ conditions: { '==': [{ var: 'event.__proto__' }, 1] } }, 422)).detail[0].loc).toEqual([
      'body',
      'conditions',
      '==',
      0,
      'var',
    ]);
    expect((await refused({ actions: [{ type: 'escalate' }] }, 422)).detail[0].loc).toEqual([
      'body',
      'actions',
      0,
      'type',
    ]);
    expect((await refused({ trigger: { type: 'incident' } }, 422)).detail[0].loc).toEqual([
      'body',
      'trigger',
      'changes',
    ]);
    expect((await refused({ trigger: { type: 'manual', event_types: ['door.forced'] } }, 422)).detail[0].loc).toEqual([
      'body',
      'trigger',
      'event_types',
    ]);
    // Another tenant's integration is an unknown one here.
    expect(await refused({ actions: [{ type: 'notify_integration', integration_id: theirs.id }] }, 404)).toEqual({
      detail: 'Integration not found (actions[0].integration_id)',
    });

    const a = await workflow(org, { ...base, name: 'A', trigger: { type: 'manual' } });
    const b = await workflow(org, {
      ...base,
      name: 'B',
      trigger: { type: 'manual' },
      actions: [{ type: 'run_workflow', workflow_id: a.workflow_id }],
    });
    const loop = await call('PATCH', `/api/v1/workflows/${a.workflow_id}`, {
      token: org.token,
      body: { actions: [{ type: 'run_workflow', workflow_id: b.workflow_id }] },
    });
    expect(loop.status).toBe(422);
    expect(loop.body.detail[0]).toMatchObject({ loc: ['body', 'actions', 0, 'workflow_id'], type: 'cycle' });
    expect(loop.body.detail[0].msg).toContain(`${a.workflow_id} -> ${b.workflow_id} -> ${a.workflow_id}`);
    const self = await call('PATCH', `/api/v1/workflows/${a.workflow_id}`, {
      token: org.token,
      body: { actions: [{ type: 'run_workflow', workflow_id: a.workflow_id }] },
    });
    expect(self.status).toBe(422);
    // A runs nothing; B runs A: A cannot go while B runs it.
    const del = await call('DELETE', `/api/v1/workflows/${a.workflow_id}`, { token: org.token });
    expect(del.status).toBe(409);
    expect(del.body.detail).toContain('"B"');
  });
});

describe('workflows.list', () => {
  it("lists the tenant's workflows, filtered by trigger and state, and never another tenant's", async () => {
    const org = await registerTenant('WfList');
    const other = await registerTenant('WfListOther');
    const manual = await workflow(org, {
      name: 'Playbook',
      trigger: { type: 'manual' },
      actions: [{ type: 'create_incident', title: 'x' }],
    });
    const off = await workflow(org, {
      name: 'Off',
      enabled: false,
      trigger: { type: 'schedule', every_minutes: 60 },
      actions: [{ type: 'create_incident', title: 'Hourly check' }],
    });
    expect(off.next_run_at).toBeNull();
    await workflow(other, {
      name: 'Theirs',
      trigger: { type: 'manual' },
      actions: [{ type: 'create_incident', title: 'x' }],
    });
    expect((await get(org, '/api/v1/workflows')).body.map((w: Record<string, unknown>) => w.name)).toEqual([
      'Playbook',
      'Off',
    ]);
    expect(
      (await get(org, '/api/v1/workflows', { trigger_type: 'manual' })).body.map(
        (w: Record<string, unknown>) => w.workflow_id,
      ),
    ).toEqual([manual.workflow_id]);
    expect(
      (await get(org, '/api/v1/workflows', { enabled: 'false' })).body.map(
        (w: Record<string, unknown>) => w.workflow_id,
      ),
    ).toEqual([off.workflow_id]);
    expect((await get(org, '/api/v1/workflows', { tenant_id: other.tenantId })).status).toBe(404);
  });
});

describe('workflows.get', () => {
  it("answers the tenant's workflow, and another tenant's as unknown", async () => {
    const org = await registerTenant('WfGet');
    const other = await registerTenant('WfGetOther');
    const w = await workflow(org, {
      name: 'Mine',
      trigger: { type: 'manual' },
      actions: [{ type: 'create_incident', title: 'x' }],
    });
    expect((await get(org, `/api/v1/workflows/${w.workflow_id}`)).body).toEqual(w);
    const theirs = await get(other, `/api/v1/workflows/${w.workflow_id}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ detail: 'Workflow not found' });
  });
});

describe('workflows.update', () => {
  it('changes what is given, audits the change, and a schedule switched on counts from then', async () => {
    const org = await registerTenant('WfUpdate');
    const w = await workflow(org, {
      name: 'Nightly',
      enabled: false,
      trigger: { type: 'schedule', every_minutes: 60 },
      actions: [{ type: 'create_incident', title: 'Check' }],
    });
    const res = await call('PATCH', `/api/v1/workflows/${w.workflow_id}`, {
      token: org.token,
      body: { name: 'Hourly', enabled: true },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: 'Hourly', enabled: true });
    const next = Date.parse(res.body.next_run_at);
    expect(next - Date.parse(res.body.updated_at)).toBe(60 * 60_000);
    const entry = (await auditEntriesOf(org.tenantId)).find((e) => e.action === 'workflow.updated');
    expect(entry?.changes).toMatchObject({
      name: { from: 'Nightly', to: 'Hourly' },
      enabled: { from: false, to: true },
    });
  });
});

describe('workflows.enable', () => {
  it('switches a workflow on; switched off (workflows.disable) it starts no run', async () => {
    const org = await registerTenant('WfSwitch');
    const { environmentId } = await site(org);
    const w = await workflow(org, {
      name: 'Forced doors',
      trigger: { type: 'event', event_types: ['door.forced'] },
      actions: [{ type: 'create_incident', title: 'Door forced' }],
    });
    const off = await post(org, `/api/v1/workflows/${w.workflow_id}/disable`);
    expect(off.status).toBe(200);
    expect(off.body.enabled).toBe(false);
    // A second workflow on the same events shows when the runner has handled the first one's message.
    const witness = await workflow(org, {
      name: 'Witness',
      trigger: { type: 'event', event_types: ['door.forced'] },
      actions: [{ type: 'wait', minutes: 600 }],
    });
    const first = await ingestAt(org, environmentId, 'door.forced', GATE);
    await until(
      () => runsOf(org, witness.workflow_id),
      (r) => r.some((x) => x.event_id === first.event_id),
      "the runner to handle the first event's message",
    );
    const on = await post(org, `/api/v1/workflows/${w.workflow_id}/enable`);
    expect(on.body.enabled).toBe(true);
    const second = await ingestAt(org, environmentId, 'door.forced', GATE);
    const runs = await until(
      () => runsOf(org, w.workflow_id),
      (r) => r.length > 0 && r[0]!.status === 'succeeded',
      'a run',
    );
    // Only the event handled while it was on ran it.
    expect(runs.map((r) => r.event_id)).toEqual([second.event_id]);
    const actions = (await auditEntriesOf(org.tenantId)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['workflow.disabled', 'workflow.enabled']));
  });
});

describe('workflows.disable', () => {
  it("is the tenant's own: another tenant's workflow is unknown", async () => {
    const org = await registerTenant('WfDisable');
    const other = await registerTenant('WfDisableOther');
    const w = await workflow(org, {
      name: 'Mine',
      trigger: { type: 'manual' },
      actions: [{ type: 'create_incident', title: 'x' }],
    });
    expect((await post(other, `/api/v1/workflows/${w.workflow_id}/disable`)).status).toBe(404);
    expect((await get(org, `/api/v1/workflows/${w.workflow_id}`)).body.enabled).toBe(true);
  });
});

describe('workflows.delete', () => {
  it('deletes a workflow; it is unknown afterwards', async () => {
    const org = await registerTenant('WfDelete');
    const w = await workflow(org, {
      name: 'Gone soon',
      trigger: { type: 'manual' },
      actions: [{ type: 'create_incident', title: 'x' }],
    });
    expect((await call('DELETE', `/api/v1/workflows/${w.workflow_id}`, { token: org.token })).status).toBe(204);
    expect((await get(org, `/api/v1/workflows/${w.workflow_id}`)).status).toBe(404);
    expect(
      (await auditEntriesOf(org.tenantId)).some(
        (e) => e.action === 'workflow.deleted' && e.resource_id === w.workflow_id,
      ),
    ).toBe(true);
  });
});

/** Runs the timers' worker with this process's clock `minutes` ahead, then the runs it queued. */
async function minutesLater(minutes: number): Promise<void> {
  await atTime(Date.now() + minutes * 60_000, async () => {
    // As the local runtime runs it: its own role fenced to the platform (docs/architecture.md, 27).
    await runAsWorker(workerById('workflow-timers'), () =>
      timersHandler({}, workerContext(workerById('workflow-timers'), 'us-east-1')),
    );
    await runner.drain();
  });
}

describe('workflows.runs', () => {
  it('"wait 1 minute, then escalate if not acknowledged" escalates the unacknowledged incident once and leaves the acknowledged one alone', async () => {
    const org = await registerTenant('WfWait');
    const w = await workflow(org, {
      name: 'Chase unacknowledged incidents',
      trigger: { type: 'incident', changes: ['incident.created'] },
      conditions: { '==': [{ substr: [{ var: 'incident.title' }, 0, 6] }, 'Chase:'] },
      actions: [
        { type: 'wait', minutes: 1 },
        {
          type: 'escalate',
          reason: 'Not acknowledged within a minute',
          if: { '==': [{ var: 'incident.status' }, 'confirmed'] },
        },
      ],
    });
    const open = async (title: string) =>
      (await post(org, '/api/v1/incidents', { title, severity: 'high' })).body.incident_id as string;
    const ignored = await open('Chase: gate 4 alarm');
    const handled = await open('Chase: gate 5 alarm');
    await open('Not chased');
    const runs = await until(
      () => runsOf(org, w.workflow_id),
      (r) => r.length === 2 && r.every((x) => x.status === 'waiting'),
      'two waiting runs',
    );
    for (const run of runs) {
      expect(run.steps.map((s: Record<string, unknown>) => s.status)).toEqual(['waiting', 'pending']);
      expect(Date.parse(run.resume_at) - Date.parse(run.steps[0].started_at)).toBe(60_000);
    }
    const ack = await call('PATCH', `/api/v1/incidents/${handled}/respond`, {
      token: org.token,
      body: { status: 'acknowledged' },
    });
    expect(ack.status, ack.text).toBe(200);

    await minutesLater(2);
    const done = await runsOf(org, w.workflow_id);
    const runOf = (incidentId: string) => done.find((r) => r.incident_id === incidentId)!;
    expect(runOf(ignored)).toMatchObject({ status: 'succeeded', resume_at: null });
    expect(runOf(ignored).steps.map((s: Record<string, unknown>) => s.status)).toEqual(['succeeded', 'succeeded']);
    expect(runOf(handled).steps.map((s: Record<string, unknown>) => s.status)).toEqual(['succeeded', 'skipped']);
    expect((await get(org, `/api/v1/incidents/${ignored}`)).body.escalation_level).toBe(1);
    expect((await get(org, `/api/v1/incidents/${handled}`)).body.escalation_level).toBe(0);

    // The timers are gone: a later sweep escalates nothing again.
    await minutesLater(3);
    expect((await get(org, `/api/v1/incidents/${ignored}`)).body.escalation_level).toBe(1);
  }, 60_000);

  it('a scheduled workflow runs once per turn when its timer comes round, and its next turn moves on', async () => {
    const org = await registerTenant('WfSchedule');
    const w = await workflow(org, {
      name: 'Patrol round',
      trigger: { type: 'schedule', every_minutes: 5 },
      actions: [{ type: 'create_incident', title: 'Patrol round due', severity: 'low' }],
    });
    const firstTurn = Date.parse(w.next_run_at);
    expect(firstTurn - Date.parse(w.created_at)).toBe(5 * 60_000);
    await minutesLater(6);
    const runs = await runsOf(org, w.workflow_id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'succeeded', trigger: { type: 'schedule' } });
    expect((await get(org, `/api/v1/incidents/${runs[0]!.incident_id}`)).body).toMatchObject({
      title: 'Patrol round due',
      source: 'workflow',
    });
    expect(Date.parse((await get(org, `/api/v1/workflows/${w.workflow_id}`)).body.next_run_at)).toBe(
      firstTurn + 5 * 60_000,
    );
    // The same moment again: that turn is done.
    await minutesLater(6);
    expect(await runsOf(org, w.workflow_id)).toHaveLength(1);
  });

  it('tries a failing step three times, then marks it and the run failed, saying why', async () => {
    const org = await registerTenant('WfFail');
    const { environmentId } = await site(org);
    const down = await integration(org, `/down-${org.tenantId}`);
    const w = await workflow(org, {
      name: 'Tell a dead endpoint',
      trigger: { type: 'event', event_types: ['glass.break'] },
      actions: [
        { type: 'notify_integration', integration_id: down.id },
        { type: 'create_incident', title: 'never reached' },
      ],
    });
    await ingestAt(org, environmentId, 'glass.break', GATE);
    const [run] = await until(
      () => runsOf(org, w.workflow_id),
      (r) => r[0]?.status === 'failed',
      'the run to fail',
      45_000,
    );
    expect(run!.steps[0]).toMatchObject({ status: 'failed', attempts: 3, error: expect.stringContaining('503') });
    expect(run!.steps[1]).toMatchObject({ status: 'pending', attempts: 0 });
    expect(run!.error).toMatch(/^Step 0 \(notify_integration\) failed after 3 tries/);
    expect(hits(`/down-${org.tenantId}`)).toHaveLength(3);
    expect((await get(org, '/api/v1/workflows/' + w.workflow_id + '/runs', { status: 'succeeded' })).body).toEqual([]);
  }, 60_000);
});

describe('workflows.runs (webhooks)', () => {
  it('a send_webhook step makes one signed delivery of type workflow.action to the subscription, in its delivery log', async () => {
    const org = await registerTenant('WfHook');
    const { environmentId } = await site(org);
    const path = `/hook-${org.tenantId}`;
    const sub = await post(org, '/api/v1/webhooks', {
      url: `${receiver.url}${path}`,
      event_types: ['incident.created'],
    });
    expect(sub.status, sub.text).toBe(201);
    const w = await workflow(org, {
      name: 'Hook intrusions',
      trigger: { type: 'event', event_types: ['intrusion.detected'] },
      actions: [{ type: 'send_webhook', webhook_id: sub.body.webhook_id, message: 'Intrusion at the staff entrance' }],
    });
    const event = await ingestAt(org, environmentId, 'intrusion.detected', GATE);
    const [run] = await until(
      () => runsOf(org, w.workflow_id),
      (r) => r[0]?.status === 'succeeded',
      'the run',
    );
    await until(
      async () => hits(path),
      (h) => h.length > 0,
      'the delivery',
    );
    const delivered = hits(path)[0]!;
    expect(() =>
      new Webhook(sub.body.secret).verify(delivered.body, delivered.headers as Record<string, string>),
    ).not.toThrow();
    expect(delivered.headers['webhook-id']).toBe(run!.steps[0].result.delivery_id);
    const body = JSON.parse(delivered.body);
    expect(body).toMatchObject({
      type: 'workflow.action',
      data: {
        workflow_id: w.workflow_id,
        run_id: run!.run_id,
        event_id: event.event_id,
        message: 'Intrusion at the staff entrance',
      },
    });
    // Exactly the fields the OpenAPI document's workflow.action delivery names.
    const doc = (await call('GET', '/openapi.json')).body;
    expect(Object.keys(body.data).sort()).toEqual(
      [...doc.components.schemas.WebhookWorkflowActionData.required].sort(),
    );
    const log = await get(org, `/api/v1/webhooks/${sub.body.webhook_id}/deliveries`);
    expect(log.body.items ?? log.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ delivery_id: run!.steps[0].result.delivery_id, event_type: 'workflow.action' }),
      ]),
    );
  });
});

describe('workflows.run', () => {
  it('seeds three workflows with the threat libraries, once; the perimeter breach playbook works an incident and waits durably', async () => {
    const org = await registerTenant('WfSeed');
    const seeded = await post(org, '/api/v1/threat-libraries/seed');
    expect(seeded.status, seeded.text).toBe(200);
    expect(seeded.body.playbooks.created).toHaveLength(3);
    expect((await post(org, '/api/v1/threat-libraries/seed')).body.playbooks).toEqual({
      created: [],
      skipped: seeded.body.playbooks.created,
    });
    const all = (await get(org, '/api/v1/workflows')).body as Record<string, any>[];
    const breach = all.find((w) => w.seed_key === 'gatehouse.perimeter-breach-response')!;
    expect(all.find((w) => w.seed_key === 'gatehouse.critical-unacknowledged')).toMatchObject({
      enabled: false,
      trigger: { type: 'incident' },
    });
    expect(all.find((w) => w.seed_key === 'gatehouse.vessel-loitering-cable')).toMatchObject({
      enabled: true,
      trigger: { type: 'manual' },
    });

    // The breach playbook acts on an incident: without one it is refused.
    const bare = await post(org, `/api/v1/workflows/${breach.workflow_id}/run`, {});
    expect(bare.status).toBe(422);
    expect(bare.body.detail[0].loc).toEqual(['body', 'incident_id']);

    const operator = await createUser(org.token, 'OPERATOR');
    const incidentId = (await post(org, '/api/v1/incidents', { title: 'Fence alarm, north line', severity: 'medium' }))
      .body.incident_id as string;
    const started = await call('POST', `/api/v1/workflows/${breach.workflow_id}/run`, {
      token: operator.token,
      body: { incident_id: incidentId },
    });
    expect(started.status, started.text).toBe(202);
    expect(started.body).toMatchObject({
      status: 'running',
      incident_id: incidentId,
      trigger: { type: 'manual', by: operator.userId },
    });
    const waiting = await until(
      () => get(org, `/api/v1/workflows/${breach.workflow_id}/runs/${started.body.run_id}`),
      (r) => r.body.status === 'waiting',
      'the playbook to reach its wait',
    );
    expect(waiting.body.steps.map((s: Record<string, unknown>) => s.status)).toEqual([
      'succeeded',
      'succeeded',
      'waiting',
      'pending',
    ]);
    const incident = (await get(org, `/api/v1/incidents/${incidentId}`)).body;
    expect(incident.severity).toBe('high');
    // The run is audited as the operator who started it.
    expect((await auditEntriesOf(org.tenantId)).find((e) => e.action === 'workflow.run')).toMatchObject({
      user_id: operator.userId,
      resource_id: breach.workflow_id,
    });

    // Ten minutes on, nobody acknowledged: escalated.
    await minutesLater(11);
    const after = (await get(org, `/api/v1/workflows/${breach.workflow_id}/runs/${started.body.run_id}`)).body;
    expect(after.status).toBe('succeeded');
    expect((await get(org, `/api/v1/incidents/${incidentId}`)).body.escalation_level).toBe(1);

    // A workflow of another trigger is not run by request; another tenant's is unknown.
    const critical = all.find((w) => w.seed_key === 'gatehouse.critical-unacknowledged')!;
    expect((await post(org, `/api/v1/workflows/${critical.workflow_id}/run`, {})).status).toBe(409);
    const other = await registerTenant('WfSeedOther');
    expect((await post(other, `/api/v1/workflows/${breach.workflow_id}/run`, { incident_id: incidentId })).status).toBe(
      404,
    );
    const foreignIncident = (await post(other, '/api/v1/incidents', { title: 'Theirs', severity: 'low' })).body
      .incident_id;
    expect(
      (await post(org, `/api/v1/workflows/${breach.workflow_id}/run`, { incident_id: foreignIncident })).body,
    ).toEqual({ detail: 'Incident not found' });
  }, 60_000);
});

describe('workflows.runs (run_workflow)', () => {
  it("a run_workflow step starts the other workflow's run with this run's incident; the child names its parent", async () => {
    const org = await registerTenant('WfChild');
    const child = await workflow(org, {
      name: 'Note it',
      trigger: { type: 'manual' },
      actions: [{ type: 'add_note', text: 'Checked by the night shift playbook' }],
    });
    const parent = await workflow(org, {
      name: 'Night shift',
      trigger: { type: 'manual' },
      actions: [{ type: 'run_workflow', workflow_id: child.workflow_id }],
    });
    const incidentId = (await post(org, '/api/v1/incidents', { title: 'Gate left open', severity: 'low' })).body
      .incident_id as string;
    const started = (await post(org, `/api/v1/workflows/${parent.workflow_id}/run`, { incident_id: incidentId })).body;
    const done = await until(
      () => get(org, `/api/v1/workflows/${parent.workflow_id}/runs/${started.run_id}`),
      (r) => r.body.status === 'succeeded',
      'the parent run',
    );
    const childRunId = done.body.steps[0].result.run_id as string;
    const childRun = await until(
      () => get(org, `/api/v1/workflows/${child.workflow_id}/runs/${childRunId}`),
      (r) => r.body.status === 'succeeded',
      'the child run',
    );
    expect(childRun.body).toMatchObject({
      incident_id: incidentId,
      trigger: { type: 'workflow', by: `run:${started.run_id}` },
    });
    const history = (await get(org, `/api/v1/replay/${incidentId}`)).body.timeline as Record<string, any>[];
    expect(
      history.some(
        (h) =>
          h.kind === 'note' &&
          h.detail?.text === 'Checked by the night shift playbook' &&
          h.by === `workflow:${child.workflow_id}`,
      ),
    ).toBe(true);
  });
});

describe('workflows.run (a lost queue message)', () => {
  it('a run stored whose queue message never came is started by its safety timer five minutes on', async () => {
    const org = await registerTenant('WfLost');
    const w = await workflow(org, {
      name: 'Lost message',
      trigger: { type: 'manual' },
      actions: [{ type: 'create_incident', title: 'Picked up late' }],
    });
    // As runPlaybook stores it, but its message lost (the request failed after the write).
    const stored = await getWorkflow(systemTenant(org.tenantId), w.workflow_id);
    const run = newRun(stored!, newTimeId(), { type: 'manual', message_id: null, by: org.userId }, {});
    await transactWrite([putNewRunItem(run), safetyTimer(run)]);
    expect((await get(org, `/api/v1/workflows/${w.workflow_id}/runs/${run.run_id}`)).body.status).toBe('running');
    await minutesLater(6);
    const done = (await get(org, `/api/v1/workflows/${w.workflow_id}/runs/${run.run_id}`)).body;
    expect(done.status).toBe('succeeded');
    expect((await get(org, `/api/v1/incidents/${done.incident_id}`)).body.title).toBe('Picked up late');
  });
});

describe('workflows.runs.get', () => {
  it("answers a run of the tenant's workflow, and another tenant's as unknown", async () => {
    const org = await registerTenant('WfRunGet');
    const other = await registerTenant('WfRunGetOther');
    const w = await workflow(org, {
      name: 'Waits',
      trigger: { type: 'manual' },
      actions: [{ type: 'wait', minutes: 600 }],
    });
    const run = (await post(org, `/api/v1/workflows/${w.workflow_id}/run`, { values: { shift: 'night' } })).body;
    const mine = await get(org, `/api/v1/workflows/${w.workflow_id}/runs/${run.run_id}`);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ run_id: run.run_id, input: { shift: 'night' } });
    expect((await get(other, `/api/v1/workflows/${w.workflow_id}/runs/${run.run_id}`)).body).toEqual({
      detail: 'Workflow run not found',
    });
  });
});
