/**
 * A spoken report to a closed incident, offline: flite speaks it, the local server transcribes it
 * with pocketsphinx and reads its fields, and the incident goes through its whole life.
 * Needs flite, sox and pocketsphinx (.ci/run installs them).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, TABLE } from '../../shared/db/client.js';
import { keys } from '../../shared/db/keys.js';
import { call, registerTenant } from '../support/api.js';

function speak(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-voice-'));
  try {
    const wav = join(dir, 'report.wav');
    execFileSync('flite', ['-voice', 'kal16', '-t', text, '-o', wav]);
    return readFileSync(wav).toString('base64');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function ackPathOf(tenantId: string, incidentId: string): Promise<string> {
  const out = await db.send(
    new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': keys.outbox(tenantId, '').PK }, ConsistentRead: true }),
  );
  const note = (out.Items ?? []).filter((m) => m.detail_type === 'incident.notification' && m.detail.incident_id === incidentId).at(-1);
  return String(note!.detail.acknowledge_path);
}

describe('incidents.voice', () => {
  it('a spoken report becomes a draft whose transcript and fields carry its words', async () => {
    const org = await registerTenant('Voice');
    const res = await call('POST', '/api/v1/incidents/voice', {
      token: org.token,
      body: { audio_base64: speak('there is a suspicious person near gate four at the north fence'), format: 'wav' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'draft', source: 'voice' });
    expect(res.body.voice.transcription_status).toBe('completed');
    expect(res.body.voice.audio_key.startsWith(`tenants/${org.tenantId}/audio/`)).toBe(true);
    const words = ['suspicious', 'person', 'gate', 'north', 'fence'];
    const heard = words.filter((w) => res.body.voice.transcript.includes(w));
    expect(heard.length).toBeGreaterThanOrEqual(4);
    expect(`${res.body.voice.fields.location_text}`).toMatch(/gate|fence/);
    expect(Array.isArray(res.body.voice.follow_up_questions)).toBe(true);
  });

  it('a transcript made on the device skips recognition; an upload of another tenant is 404', async () => {
    const a = await registerTenant('Voice');
    const b = await registerTenant('Other');
    const res = await call('POST', '/api/v1/incidents/voice', { token: a.token, body: { transcript: 'smoke seen near the east warehouse door' } });
    expect(res.status).toBe(201);
    expect(res.body.voice).toMatchObject({ transcript: 'smoke seen near the east warehouse door', audio_key: null });
    const foreign = await call('POST', '/api/v1/incidents/voice', { token: b.token, body: { upload_key: `tenants/${a.tenantId}/audio/x.wav` } });
    expect(foreign.status).toBe(404);
    const nothing = await call('POST', '/api/v1/incidents/voice', { token: a.token, body: {} });
    expect(nothing.status).toBe(422);
  });
});

describe('incidents.complete', () => {
  it('fills what is missing; only a draft', async () => {
    const org = await registerTenant('Voice');
    const draft = (await call('POST', '/api/v1/incidents/voice', { token: org.token, body: { transcript: 'someone at the fence' } })).body;
    const done = await call('PATCH', `/api/v1/incidents/${draft.incident_id}/complete`, {
      token: org.token,
      body: { answers: { severity: 'high', occurred_at_text: 'ten minutes ago', location_text: 'north fence by gate 4' } },
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ severity: 'high', location_text: 'north fence by gate 4' });
    expect(done.body.voice.missing_fields).not.toContain('severity');
    expect(done.body.voice.missing_fields).not.toContain('occurred_at_text');
  });
});

describe('incidents.finalize', () => {
  it('complete, finalize, acknowledge by link, respond, resolve and close work in order; each forbidden step is 409', async () => {
    const org = await registerTenant('Voice');
    const draft = (
      await call('POST', '/api/v1/incidents/voice', { token: org.token, body: { transcript: 'there is a suspicious person near gate four at the north fence' } })
    ).body;
    const id = draft.incident_id;
    const respond = (body: Record<string, unknown>) => call('PATCH', `/api/v1/incidents/${id}/respond`, { token: org.token, body });
    expect((await respond({ status: 'in_progress' })).status).toBe(409);
    await call('PATCH', `/api/v1/incidents/${id}/complete`, { token: org.token, body: { answers: { severity: 'high' } } });
    const final = await call('POST', `/api/v1/incidents/${id}/finalize`, { token: org.token, body: {} });
    expect(final.status).toBe(200);
    expect(final.body.status).toBe('confirmed');
    expect(final.body.summary.length).toBeGreaterThan(10);
    expect(final.body.sla_due_at).toBeTruthy();
    expect((await call('POST', `/api/v1/incidents/${id}/finalize`, { token: org.token, body: {} })).status).toBe(409);
    expect((await call('PATCH', `/api/v1/incidents/${id}/complete`, { token: org.token, body: { answers: { title: 'x' } } })).status).toBe(409);
    expect((await call('POST', await ackPathOf(org.tenantId, id))).body.status).toBe('acknowledged');
    expect((await respond({ status: 'in_progress', assignee_id: org.userId })).body.status).toBe('in_progress');
    expect((await respond({ status: 'resolved', resolution: 'true_positive', resolution_notes: 'Person escorted out' })).body.status).toBe('resolved');
    expect((await respond({ status: 'closed' })).body.status).toBe('closed');
    expect((await respond({ status: 'in_progress' })).status).toBe(409);
  });
});
