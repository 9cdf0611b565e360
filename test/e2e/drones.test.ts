/**
 * Drone dispatch against a real dock stub on loopback: an HTTP server that verifies each command's
 * Standard Webhooks signature with the integration's secret (as a dock would, with the reference
 * `standardwebhooks` package), answers, then posts signed status callbacks to the command's
 * `callback_url`, which land on the incident's timeline.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerTenant, type RegisteredTenant } from '../support/api.js';
import { auditEntriesOf, seedUser } from '../support/seed.js';

interface Command {
  headers: IncomingHttpHeaders;
  body: string;
  verified: boolean;
  data: Record<string, any>;
}

interface CallbackAnswer {
  status: number;
  body: any;
}

/** What the dock posts back for a command it took, in order. */
type Script = (data: Record<string, any>) => Record<string, unknown>[];

/** A dock: verifies, answers 202 (or what `answer` says), then posts the script's callbacks, signed, one by one. */
async function startDock() {
  const dock = {
    url: '',
    secret: '',
    commands: [] as Command[],
    answer: { status: 202, body: '{"accepted":true,"mission_id":"M-17"}' },
    script: (() => []) as Script,
    /** The API's answers to the callbacks of each command, once all are posted. */
    callbacks: [] as Promise<CallbackAnswer[]>[],
    close: async () => {},
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      let verified: boolean;
      let data: Record<string, any> = {};
      try {
        const payload = new Webhook(dock.secret).verify(body, req.headers as Record<string, string>) as {
          data: Record<string, any>;
        };
        verified = true;
        data = payload.data;
      } catch {
        verified = false;
      }
      dock.commands.push({ headers: req.headers, body, verified, data });
      if (!verified) {
        res.writeHead(401).end('bad signature');
        return;
      }
      res.writeHead(dock.answer.status, { 'content-type': 'application/json' }).end(dock.answer.body);
      const updates = data.callback_url ? dock.script(data) : [];
      dock.callbacks.push(
        (async () => {
          const answers: CallbackAnswer[] = [];
          for (const [i, update] of updates.entries())
            answers.push(await postCallback(data.callback_url, dock.secret, `cb_${data.dispatch_id}_${i}`, update));
          return answers;
        })(),
      );
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  dock.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/fleet/v1/dispatch`;
  dock.close = async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  };
  return dock;
}

/** A signed callback, as a dock sends it. */
async function postCallback(
  url: string,
  secret: string,
  id: string,
  data: Record<string, unknown>,
  opts: { at?: Date; signature?: string } = {},
): Promise<CallbackAnswer> {
  const at = opts.at ?? new Date();
  const body = JSON.stringify({ type: 'drone.status', timestamp: at.toISOString(), data });
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': opts.signature ?? new Webhook(secret).sign(id, at, body),
    },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

let dock: Awaited<ReturnType<typeof startDock>>;
beforeAll(async () => {
  dock = await startDock();
});
afterAll(() => dock.close());

/** A tenant with a port environment (its location), a zone 20 km away, a drone integration and an incident at the port. */
async function world(label: string) {
  const org = await registerTenant(label);
  const as = (path: string, body: Record<string, unknown>) => call('POST', path, { token: org.token, body });
  const env = (
    await as('/api/v1/environments', { name: 'North port', type: 'port', location: { lat: 59.9, lon: 10.7 } })
  ).body;
  const zone = await as('/api/v1/zones', {
    environment_id: env.environment_id,
    name: 'Offshore mooring',
    geofence: { type: 'Circle', center: [11.05, 59.9], radius_m: 1000 },
  });
  expect(zone.status).toBe(201);
  const integration = await as('/api/v1/integrations', { name: 'Dock 1', kind: 'drone', config: { url: dock.url } });
  expect(integration.status).toBe(201);
  expect(integration.body.secret).toMatch(/^whsec_/);
  const incident = (
    await as('/api/v1/incidents', {
      title: 'Fence breach at gate 4',
      severity: 'high',
      environment_id: env.environment_id,
      location: { lat: 59.901, lon: 10.702 },
    })
  ).body;
  return { org, env, integration: integration.body, secret: integration.body.secret as string, incident };
}

const dispatch = (org: RegisteredTenant | { token: string }, incidentId: string, body: Record<string, unknown>) =>
  call('POST', `/api/v1/incidents/${incidentId}/drone-dispatches`, { token: org.token, body });
const timeline = async (org: RegisteredTenant, incidentId: string) =>
  (await call('GET', `/api/v1/replay/${incidentId}`, { token: org.token })).body.timeline as {
    kind: string;
    by: string;
    detail: Record<string, any>;
  }[];

describe('drones.dispatch', () => {
  it('sends a signed command the dock verifies, and its signed callbacks appear on the timeline', async () => {
    const w = await world('Drone');
    dock.secret = w.secret;
    dock.script = (d) => [
      { dispatch_id: d.dispatch_id, incident_id: d.incident_id, status: 'accepted', drone_id: 'DJI-M30-07' },
      { dispatch_id: d.dispatch_id, incident_id: d.incident_id, status: 'launched', battery_pct: 97 },
      {
        dispatch_id: d.dispatch_id,
        incident_id: d.incident_id,
        status: 'on_scene',
        position: { lat: 59.901, lon: 10.702, alt_m: 60 },
      },
      {
        dispatch_id: d.dispatch_id,
        incident_id: d.incident_id,
        status: 'observation',
        text: 'Two people at the cut fence, walking north',
        media_url: 'https://media.dock.example/m17/frame-0042.jpg',
      },
    ];
    const before = dock.commands.length;
    const res = await dispatch(w.org, w.incident.incident_id, {
      integration_id: w.integration.integration_id,
      task: 'inspect',
      altitude_m: 60,
      note: 'Check gate 4',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      incident_id: w.incident.incident_id,
      integration_id: w.integration.integration_id,
      task: 'inspect',
      target: { lat: 59.901, lon: 10.702 },
      altitude_m: 60,
      attempts: 1,
      dock_status_code: 202,
      dock_answer: '{"accepted":true,"mission_id":"M-17"}',
      dock_error: null,
      requested_by: w.org.userId,
    });

    // The dock got one command, signed with the integration's secret, in the documented shape.
    const got = dock.commands.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]!.verified).toBe(true);
    expect(got[0]!.headers['webhook-id']).toBe(`dispatch_${res.body.dispatch_id}`);
    expect(JSON.parse(got[0]!.body).type).toBe('drone.dispatch');
    expect(got[0]!.data).toMatchObject({
      dispatch_id: res.body.dispatch_id,
      incident_id: w.incident.incident_id,
      task: 'inspect',
      target: { lat: 59.901, lon: 10.702 },
      altitude_m: 60,
      note: 'Check gate 4',
      incident: { title: 'Fence breach at gate 4', severity: 'high' },
    });
    expect(got[0]!.data.callback_url).toMatch(
      new RegExp(`/api/v1/drone-callbacks/${w.org.tenantId}/${w.integration.integration_id}$`),
    );

    // Every callback was taken once, and the timeline shows the dispatch and each update, by the dock.
    const answers = await dock.callbacks.at(-1)!;
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((a) => a.body.duplicate)).toEqual([false, false, false, false]);
    const drone = (await timeline(w.org, w.incident.incident_id)).filter((h) => h.kind === 'drone');
    expect(drone.map((h) => h.detail.status)).toEqual([
      'dispatched',
      'accepted',
      'launched',
      'on_scene',
      'observation',
    ]);
    expect(drone[0]!.by).toBe(w.org.userId);
    expect(drone.slice(1).every((h) => h.by === `drone:${w.integration.integration_id}`)).toBe(true);
    expect(drone[4]!.detail).toMatchObject({
      text: 'Two people at the cut fence, walking north',
      media_url: 'https://media.dock.example/m17/frame-0042.jpg',
      task: 'inspect',
    });
    expect(drone[3]!.detail.position).toEqual({ lat: 59.901, lon: 10.702, alt_m: 60 });

    // The dispatch shows the last update; the dispatch is audited.
    const list = await call('GET', `/api/v1/incidents/${w.incident.incident_id}/drone-dispatches`, {
      token: w.org.token,
    });
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({
      status: 'observation',
      last_update: { status: 'observation', text: 'Two people at the cut fence, walking north' },
    });
    const audit = (await auditEntriesOf(w.org.tenantId)).filter((e) => e.action === 'drone.dispatched');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      resource_type: 'drone_dispatch',
      resource_id: res.body.dispatch_id,
      user_id: w.org.userId,
    });
  });

  it('is idempotent per incident and task: the same task again answers the first dispatch and sends nothing', async () => {
    const w = await world('DroneTwice');
    dock.secret = w.secret;
    dock.script = () => [];
    const before = dock.commands.length;
    const first = await dispatch(w.org, w.incident.incident_id, {
      integration_id: w.integration.integration_id,
      task: 'overwatch',
    });
    const again = await dispatch(w.org, w.incident.incident_id, {
      integration_id: w.integration.integration_id,
      task: 'overwatch',
      note: 'again',
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body.dispatch_id).toBe(first.body.dispatch_id);
    expect(again.body.note).toBeNull();
    expect(dock.commands.length - before).toBe(1);
    // Another task is another dispatch.
    const other = await dispatch(w.org, w.incident.incident_id, {
      integration_id: w.integration.integration_id,
      task: 'track',
    });
    expect(other.status).toBe(201);
    expect(other.body.dispatch_id).not.toBe(first.body.dispatch_id);
    expect(dock.commands.length - before).toBe(2);
    const list = await call('GET', `/api/v1/incidents/${w.incident.incident_id}/drone-dispatches`, {
      token: w.org.token,
    });
    expect(list.body.items.map((d: { task: string }) => d.task)).toEqual(['overwatch', 'track']);
  });

  it('sends a command the dock refused again on the next dispatch of the task, under the same webhook-id', async () => {
    const w = await world('DroneRetry');
    dock.secret = w.secret;
    dock.script = () => [];
    dock.answer = { status: 503, body: 'busy' };
    const before = dock.commands.length;
    try {
      const failed = await dispatch(w.org, w.incident.incident_id, {
        integration_id: w.integration.integration_id,
        task: 'inspect',
      });
      expect(failed.status).toBe(201);
      expect(failed.body).toMatchObject({ status: 'failed', dock_status_code: 503, dock_answer: 'busy', attempts: 1 });
    } finally {
      dock.answer = { status: 202, body: '{"accepted":true}' };
    }
    const retried = await dispatch(w.org, w.incident.incident_id, {
      integration_id: w.integration.integration_id,
      task: 'inspect',
    });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ status: 'sent', dock_status_code: 202, attempts: 2 });
    const got = dock.commands.slice(before);
    expect(got.map((c) => c.headers['webhook-id'])).toEqual([
      `dispatch_${retried.body.dispatch_id}`,
      `dispatch_${retried.body.dispatch_id}`,
    ]);
  });

  it('flies only inside the tenant: a target in a zone is taken, one outside every environment is 422', async () => {
    const w = await world('DroneArea');
    dock.secret = w.secret;
    dock.script = () => [];
    // 20 km east of the port, but inside the offshore mooring zone.
    const inZone = await dispatch(w.org, w.incident.incident_id, {
      integration_id: w.integration.integration_id,
      task: 'track',
      target: { lat: 59.9, lon: 11.051 },
    });
    expect(inZone.status).toBe(201);
    const far = await dispatch(w.org, w.incident.incident_id, {
      integration_id: w.integration.integration_id,
      task: 'inspect',
      target: { lat: 48.85, lon: 2.35 },
    });
    expect(far.status).toBe(422);
    expect(far.body.detail[0].loc).toEqual(['body', 'target']);
    // No location on the incident and none given: 422 too.
    const nowhere = (await call('POST', '/api/v1/incidents', { token: w.org.token, body: { title: 'Somewhere' } }))
      .body;
    const none = await dispatch(w.org, nowhere.incident_id, {
      integration_id: w.integration.integration_id,
      task: 'inspect',
    });
    expect(none.status).toBe(422);
    expect(none.body.detail[0].loc).toEqual(['body', 'target']);
  });

  it("needs OPERATOR, a drone integration, and the tenant's own incident and integration", async () => {
    const w = await world('DroneRoles');
    const other = await world('DroneOther');
    const viewer = await seedUser(w.org.tenantId, 'VIEWER');
    const operator = await seedUser(w.org.tenantId, 'OPERATOR');
    dock.secret = w.secret;
    dock.script = () => [];
    const body = { integration_id: w.integration.integration_id, task: 'inspect' };
    expect((await dispatch(viewer, w.incident.incident_id, body)).status).toBe(403);
    // Another tenant's incident or integration is unknown here.
    expect((await dispatch(w.org, other.incident.incident_id, body)).status).toBe(404);
    expect(
      (await dispatch(w.org, w.incident.incident_id, { ...body, integration_id: other.integration.integration_id }))
        .status,
    ).toBe(404);
    expect(
      (await call('GET', `/api/v1/incidents/${other.incident.incident_id}/drone-dispatches`, { token: w.org.token }))
        .status,
    ).toBe(404);
    // A Slack integration is not a dock.
    const slack = await call('POST', '/api/v1/integrations', {
      token: w.org.token,
      body: { name: 'Chat', kind: 'slack', config: { webhook_url: `${new URL(dock.url).origin}/slack` } },
    });
    const notDock = await dispatch(w.org, w.incident.incident_id, {
      ...body,
      integration_id: slack.body.integration_id,
    });
    expect(notDock.status).toBe(422);
    expect(notDock.body.detail[0].loc).toEqual(['body', 'integration_id']);
    const ok = await dispatch(operator, w.incident.incident_id, body);
    expect(ok.status).toBe(201);
    expect(ok.body.requested_by).toBe(operator.userId);
  });
});

describe('drones.list', () => {
  it("lists an incident's dispatches for a VIEWER, and none before the first", async () => {
    const w = await world('DroneList');
    const viewer = await seedUser(w.org.tenantId, 'VIEWER');
    const empty = await call('GET', `/api/v1/incidents/${w.incident.incident_id}/drone-dispatches`, {
      token: viewer.token,
    });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ items: [], total: 0, limit: 50, offset: 0, next_offset: null });
  });
});

describe('drones.callback', () => {
  it('refuses an unsigned, badly signed, stale or misaddressed callback with 401, and takes a replay once', async () => {
    const w = await world('DroneCb');
    const other = await world('DroneCbOther');
    dock.secret = w.secret;
    dock.script = () => [];
    const sent = (
      await dispatch(w.org, w.incident.incident_id, { integration_id: w.integration.integration_id, task: 'inspect' })
    ).body;
    const url = dock.commands.at(-1)!.data.callback_url as string;
    const data = { dispatch_id: sent.dispatch_id, incident_id: w.incident.incident_id, status: 'launched' };

    const unsigned = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'drone.status', timestamp: new Date().toISOString(), data }),
    });
    expect(unsigned.status).toBe(401);
    expect(
      (
        await postCallback(url, w.secret, 'cb-bad', data, {
          signature: 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
        })
      ).status,
    ).toBe(401);
    // Signed with another tenant's drone secret.
    expect((await postCallback(url, other.secret, 'cb-other', data)).status).toBe(401);
    // Ten minutes old.
    expect((await postCallback(url, w.secret, 'cb-stale', data, { at: new Date(Date.now() - 600_000) })).status).toBe(
      401,
    );
    // The right secret at another tenant's address: the address must name the signer's tenant.
    const elsewhere = url.replace(w.org.tenantId, other.org.tenantId);
    expect((await postCallback(elsewhere, w.secret, 'cb-elsewhere', data)).status).toBe(401);
    // Another tenant's dispatch, signed by its own dock, cannot name this incident.
    const otherUrl = `${new URL(url).origin}/api/v1/drone-callbacks/${other.org.tenantId}/${other.integration.integration_id}`;
    expect((await postCallback(otherUrl, other.secret, 'cb-cross', data)).status).toBe(404);

    const first = await postCallback(url, w.secret, 'cb-1', data);
    const replay = await postCallback(url, w.secret, 'cb-1', data);
    expect(first).toMatchObject({
      status: 200,
      body: { dispatch_id: sent.dispatch_id, status: 'launched', duplicate: false },
    });
    expect(replay).toMatchObject({ status: 200, body: { dispatch_id: sent.dispatch_id, duplicate: true } });
    const drone = (await timeline(w.org, w.incident.incident_id)).filter((h) => h.kind === 'drone');
    expect(drone.map((h) => h.detail.status)).toEqual(['dispatched', 'launched']);
    // Nothing reached the other tenant's incident.
    expect((await timeline(other.org, other.incident.incident_id)).filter((h) => h.kind === 'drone')).toEqual([]);
  });
});

describe('drone integrations', () => {
  it('are probed with a signed integration.test the dock verifies, and keep their secret when their address changes', async () => {
    const w = await world('DroneProbe');
    dock.secret = w.secret;
    const before = dock.commands.length;
    const probe = await call('POST', `/api/v1/integrations/${w.integration.integration_id}/test`, {
      token: w.org.token,
    });
    expect(probe.body).toMatchObject({ reachable: true, status_code: 202, error: null });
    expect(dock.commands.slice(before).map((c) => [c.verified, JSON.parse(c.body).type])).toEqual([
      [true, 'integration.test'],
    ]);
    // A new address: the secret shown once still signs (the dock keeps verifying).
    const moved = await call('PATCH', `/api/v1/integrations/${w.integration.integration_id}`, {
      token: w.org.token,
      body: { config: { url: `${dock.url}?v=2` } },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).not.toHaveProperty('secret');
    const sent = await dispatch(w.org, w.incident.incident_id, {
      integration_id: w.integration.integration_id,
      task: 'inspect',
    });
    expect(sent.body.status === 'sent' || sent.body.status === 'accepted').toBe(true);
    expect(dock.commands.at(-1)).toMatchObject({ verified: true });
  });

  it('are not told of anything: naming one in an escalation level or a notify step is 422', async () => {
    const w = await world('DroneNotTold');
    const level = await call('PATCH', '/api/v1/portal/settings', {
      token: w.org.token,
      body: {
        escalation_policy: {
          levels: [{ after_minutes: 15, notify_roles: ['OPERATOR'], integration_ids: [w.integration.integration_id] }],
        },
      },
    });
    expect(level.status).toBe(422);
    expect(level.body.detail[0].loc).toEqual(['body', 'escalation_policy', 'levels', 0, 'integration_ids', 0]);
    const step = await call('POST', '/api/v1/workflows', {
      token: w.org.token,
      body: {
        name: 'Tell the dock',
        trigger: { type: 'manual' },
        actions: [{ type: 'notify_integration', integration_id: w.integration.integration_id, message: 'hi' }],
      },
    });
    expect(step.status).toBe(422);
    expect(step.body.detail[0].loc).toEqual(['body', 'actions', 0, 'integration_id']);
  });
});
