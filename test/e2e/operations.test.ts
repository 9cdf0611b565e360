/**
 * The live status and the agents against the run's stack: real probes, real heartbeats of the
 * run's workers, real queues; and the agents' switches acting on the paths they name (ingest,
 * playbooks). Stopping a worker for real is test/integration/stopped-worker.test.ts (its own
 * `npm start`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_IDS } from '../../shared/vocabulary/agents.js';
import { call, createUser, registerTenant } from '../support/api.js';
import { auditEntriesOf } from '../support/seed.js';
import { denials, ingest, library, site, until } from '../support/threat-site.js';

describe('liveStatus', () => {
  it('answers without a credential: every dependency and worker, cached for seconds, naming no tenant and no address', async () => {
    const org = await registerTenant('LiveStatus');
    const res = await call('GET', '/api/v1/live-status');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=10');
    const names = (res.body.components as { name: string }[]).map((c) => c.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'api',
        'table',
        'storage',
        'identity',
        'event-bus',
        'stream',
        'worker:publish-events',
        'worker:workflow-runner',
        'worker:send-notifications',
      ]),
    );
    for (const c of res.body.components) expect(['operational', 'degraded', 'outage']).toContain(c.status);
    expect(res.body.components.find((c: { name: string }) => c.name === 'table').status).toBe('operational');
    const publisher = res.body.components.find((c: { name: string }) => c.name === 'worker:publish-events');
    expect(publisher).toMatchObject({
      kind: 'worker',
      worker: { runs_24h: expect.any(Number), errors_24h: expect.any(Number), backlog: null },
    });
    const queueWorker = res.body.components.find((c: { name: string }) => c.name === 'worker:webhook-deliver');
    expect(queueWorker.worker).toMatchObject({ backlog: expect.any(Number), dead_letters: expect.any(Number) });
    // Nothing of a tenant, and no address of the deployment.
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(org.tenantId);
    expect(text).not.toMatch(/https?:\/\/|arn:aws|127\.0\.0\.1|localhost|T#/);
    // Cached: an answer within the 10 s is the same computation.
    const again = await call('GET', '/api/v1/live-status');
    expect(again.body.checked_at).toBe(res.body.checked_at);
  });
});

describe('agents.list', () => {
  it('lists the nine agents with their state, workers and models; a VIEWER may read them', async () => {
    const org = await registerTenant('Agents');
    const viewer = await createUser(org.token, 'VIEWER');
    // An event of the tenant goes through the stream publisher: its heartbeat shows a run.
    expect((await call('POST', '/api/v1/events', { token: org.token, body: { type: 'motion.detected' } })).status).toBe(
      201,
    );
    const res = await until(
      () => call('GET', '/api/v1/agents', { token: viewer.token }),
      (r) =>
        r.status === 200 && r.body.items.find((a: { agent_id: string }) => a.agent_id === 'event-triage')?.runs_24h > 0,
      "the stream publisher's heartbeat",
    );
    expect(res.body.items.map((a: { agent_id: string }) => a.agent_id)).toEqual([...AGENT_IDS]);
    expect(res.body).toMatchObject({ total: 9, next_offset: null });
    const byId = Object.fromEntries(res.body.items.map((a: { agent_id: string }) => [a.agent_id, a]));
    for (const a of res.body.items) expect(['active', 'idle', 'degraded']).toContain(a.status);
    expect(byId['event-triage']).toMatchObject({
      enabled: true,
      can_disable: true,
      workers: ['publish-events'],
      settings: { incident_threshold: 0.7 },
    });
    expect(byId['event-triage'].runs_24h).toBeGreaterThan(0);
    expect(byId['field-extraction'].model).toMatch(/offline extractor/);
    expect(byId['voice-intake'].model).toMatch(/pocketsphinx/);
    expect(byId['webhook-deliverer']).toMatchObject({ can_disable: false, backlog: expect.any(Number) });
    expect(byId['workflow-runner'].workers).toEqual(['workflow-runner', 'workflow-timers']);
    const other = await registerTenant('AgentsOther');
    expect(
      (await call('GET', '/api/v1/agents', { token: org.token, query: { tenant_id: other.tenantId } })).status,
    ).toBe(404);
  });
});

describe('agents.get', () => {
  it('answers one agent; an unknown one is 404', async () => {
    const org = await registerTenant('AgentOne');
    const res = await call('GET', '/api/v1/agents/sla-watchdog', { token: org.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ agent_id: 'sla-watchdog', workers: ['sla-escalation'], enabled: true });
    const unknown = await call('GET', '/api/v1/agents/coffee-maker', { token: org.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Agent not found' });
  });
});

describe('agents.update', () => {
  it('switched off, threat correlation matches no definition and triage opens no incident, for this tenant only; on again, both act', async () => {
    const org = await registerTenant('AgentSwitch');
    const other = await registerTenant('AgentSwitchOther');
    const { environmentId } = await site(org);
    await library(org, [{ ...denials, match: { event_types: ['door.forced'] } }]);
    const off = async (agent: string, enabled: boolean) => {
      const res = await call('PATCH', `/api/v1/agents/${agent}`, { token: org.token, body: { enabled } });
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    expect(await off('threat-correlation', false)).toMatchObject({ status: 'disabled', enabled: false });
    await off('event-triage', false);
    // An event of this site scores about 0.6 without its signature: the threshold under it.
    expect(
      (
        await call('PATCH', '/api/v1/agents/event-triage', {
          token: org.token,
          body: { settings: { incident_threshold: 0.5 } },
        })
      ).status,
    ).toBe(200);
    const quiet = await ingest(org, environmentId, 'door.forced', { severity: 'critical' });
    expect(quiet.matched_signatures).toEqual([]);
    expect(quiet.threat_score).toBeGreaterThanOrEqual(0.5);
    expect(quiet.incident_id).toBeNull();
    // Another tenant's agents are its own.
    expect((await call('GET', '/api/v1/agents/threat-correlation', { token: other.token })).body.enabled).toBe(true);

    await off('threat-correlation', true);
    await off('event-triage', true);
    const loud = await ingest(org, environmentId, 'door.forced', { severity: 'critical' });
    expect(loud.matched_signatures.map((m) => m.definition_id)).toEqual(['repeated-denials']);
    expect(loud.incident_id).not.toBeNull();
    const actions = (await auditEntriesOf(org.tenantId))
      .filter((e) => e.resource_type === 'agent')
      .map((e) => `${e.action} ${e.resource_id}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        'agent.disabled threat-correlation',
        'agent.enabled threat-correlation',
        'agent.disabled event-triage',
        'agent.enabled event-triage',
      ]),
    );
  });

  it("sets triage's threshold; refuses to switch off what may not be, settings an agent does not read, and callers below TENANT_ADMIN", async () => {
    const org = await registerTenant('AgentConfig');
    const set = await call('PATCH', '/api/v1/agents/event-triage', {
      token: org.token,
      body: { settings: { incident_threshold: 0.95 } },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.settings).toEqual({ incident_threshold: 0.95 });
    expect((await call('GET', '/api/v1/agents/event-triage', { token: org.token })).body.settings).toEqual({
      incident_threshold: 0.95,
    });
    expect((await auditEntriesOf(org.tenantId)).some((e) => e.action === 'tenant_config.updated')).toBe(true);
    const required = await call('PATCH', '/api/v1/agents/audit-sealer', { token: org.token, body: { enabled: false } });
    expect(required.status).toBe(409);
    expect(required.body.detail).toMatch(/cannot be switched off/);
    const wrong = await call('PATCH', '/api/v1/agents/notifier', {
      token: org.token,
      body: { settings: { incident_threshold: 0.5 } },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail[0].loc).toEqual(['body', 'settings', 'incident_threshold']);
    const operator = await createUser(org.token, 'OPERATOR');
    expect(
      (await call('PATCH', '/api/v1/agents/notifier', { token: operator.token, body: { enabled: false } })).status,
    ).toBe(403);
  });

  it('voice reports answered in the request count as runs of voice intake and field extraction', async () => {
    const org = await registerTenant('AgentVoiceRuns');
    const runs = async () => {
      const res = await call('GET', '/api/v1/agents', { token: org.token });
      expect(res.status).toBe(200);
      const byId = Object.fromEntries(res.body.items.map((a: { agent_id: string }) => [a.agent_id, a]));
      return { intake: byId['voice-intake'], extraction: byId['field-extraction'] };
    };
    const before = await runs();
    // A short recording, transcribed and extracted while the route answers (no worker involved).
    const dir = mkdtempSync(join(tmpdir(), 'voice-runs-'));
    execFileSync('flite', ['-voice', 'kal16', '-t', 'smoke at the east gate', '-o', join(dir, 'report.wav')]);
    const wav = readFileSync(join(dir, 'report.wav'));
    rmSync(dir, { recursive: true, force: true });
    const spoken = await call('POST', '/api/v1/incidents/voice', {
      token: org.token,
      body: { audio_base64: wav.toString('base64'), format: 'wav' },
    });
    expect(spoken.status, spoken.text).toBe(201);
    expect(spoken.body.voice.transcription_status).toBe('completed');
    const after = await runs();
    expect(after.intake.runs_24h).toBeGreaterThan(before.intake.runs_24h);
    expect(after.extraction.runs_24h).toBeGreaterThan(before.extraction.runs_24h);
    for (const agent of [after.intake, after.extraction]) {
      expect(agent.status).toBe('active');
      expect(Date.parse(agent.last_run_at)).toBeGreaterThan(Date.now() - 60_000);
    }
  });

  it('switched off, voice intake refuses voice reports, and field extraction leaves a transcript without fields', async () => {
    const org = await registerTenant('AgentVoice');
    const report = { transcript: 'smoke seen near the east warehouse door' };
    const extracted = await call('POST', '/api/v1/incidents/voice', { token: org.token, body: report });
    expect(extracted.status, extracted.text).toBe(201);
    expect(Object.keys(extracted.body.voice.fields).length).toBeGreaterThan(0);

    await call('PATCH', '/api/v1/agents/field-extraction', { token: org.token, body: { enabled: false } });
    const bare = await call('POST', '/api/v1/incidents/voice', { token: org.token, body: report });
    expect(bare.status, bare.text).toBe(201);
    expect(bare.body.voice).toMatchObject({ transcript: report.transcript, fields: {} });

    await call('PATCH', '/api/v1/agents/voice-intake', { token: org.token, body: { enabled: false } });
    const refused = await call('POST', '/api/v1/incidents/voice', { token: org.token, body: report });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/voice intake agent is switched off/);
  });

  it('switched off, the workflow runner starts no workflow and refuses playbooks', async () => {
    const org = await registerTenant('AgentRunner');
    const playbook = await call('POST', '/api/v1/workflows', {
      token: org.token,
      body: { name: 'Drill', trigger: { type: 'manual' }, actions: [{ type: 'create_incident', title: 'Drill' }] },
    });
    expect(playbook.status).toBe(201);
    await call('PATCH', '/api/v1/agents/workflow-runner', { token: org.token, body: { enabled: false } });
    const refused = await call('POST', `/api/v1/workflows/${playbook.body.workflow_id}/run`, {
      token: org.token,
      body: {},
    });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/workflow runner agent is switched off/);
  });
});
