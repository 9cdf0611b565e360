/**
 * A spoken report to a closed incident, offline: flite speaks it, the local server transcribes it
 * with pocketsphinx and reads its fields, and the incident goes through its whole life. Longer
 * recordings go through an upload URL: PUT to s3rver, then their key to the voice route.
 * Needs flite, sox and pocketsphinx (.ci/run installs them).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { BUCKET, deleteObjectsUnder, headObject, s3 } from '../../shared/adapters/s3.js';
import { tenantAudioPrefix } from '../../shared/adapters/speech/types.js';
import { MAX_VOICE_UPLOAD_BYTES } from '../../shared/schemas/incidents.js';
import { call, createUser, registerTenant } from '../support/api.js';
import { outboxOf } from '../support/seed.js';
import { ackPathOf as sentAckPath } from '../support/notifications.js';

/** The text spoken by flite as a WAV, or converted by sox to another format. */
function speak(text: string, format: 'wav' | 'flac' | 'mp3' | 'ogg' = 'wav'): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-voice-'));
  try {
    const wav = join(dir, 'report.wav');
    execFileSync('flite', ['-voice', 'kal16', '-t', text, '-o', wav]);
    if (format === 'wav') return readFileSync(wav);
    const converted = join(dir, `report.${format}`);
    execFileSync('sox', [wav, converted]);
    return readFileSync(converted);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const REPORT = 'there is a suspicious person near gate four at the north fence';
const REPORT_WORDS = ['suspicious', 'person', 'gate', 'north', 'fence'];

/** Stores `size` zero bytes at `key` (the local S3's HeadBucket, /health's probe, no longer reads objects). */
async function putLarge(key: string, size: number): Promise<void> {
  await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: Buffer.alloc(size), ContentType: 'audio/wav' }));
}

/** An upload URL for `data`, then a PUT of it with the headers the answer names. */
async function uploadRecording(token: string, data: Buffer, format: 'wav' | 'flac') {
  const ticket = await call('POST', '/api/v1/incidents/voice/upload-url', {
    token,
    body: { format, size_bytes: data.length },
  });
  expect(ticket.status).toBe(201);
  const put = await fetch(ticket.body.upload_url, {
    method: ticket.body.method,
    headers: ticket.body.headers,
    body: data,
  });
  expect(put.status).toBe(200);
  return ticket.body as {
    upload_key: string;
    upload_url: string;
    headers: Record<string, string>;
    expires_at: string;
    max_bytes: number;
  };
}

async function ackPathOf(tenantId: string, incidentId: string): Promise<string> {
  const notes = (await outboxOf(tenantId)).filter(
    (m) => m.detail_type === 'incident.notification' && m.detail.incident_id === incidentId,
  );
  return sentAckPath(incidentId, notes.length);
}

describe('incidents.voice', () => {
  it('a spoken report becomes a draft whose transcript and fields carry its words', async () => {
    const org = await registerTenant('Voice');
    const res = await call('POST', '/api/v1/incidents/voice', {
      token: org.token,
      body: { audio_base64: speak(REPORT).toString('base64'), format: 'wav' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'draft', source: 'voice' });
    expect(res.body.voice.transcription_status).toBe('completed');
    expect(res.body.voice.audio_key.startsWith(`tenants/${org.tenantId}/audio/`)).toBe(true);
    const heard = REPORT_WORDS.filter((w) => res.body.voice.transcript.includes(w));
    expect(heard.length).toBeGreaterThanOrEqual(4);
    expect(`${res.body.voice.fields.location_text}`).toMatch(/gate|fence/);
    expect(Array.isArray(res.body.voice.follow_up_questions)).toBe(true);
  });

  it('a transcript made on the device skips recognition; an upload of another tenant is 404', async () => {
    const a = await registerTenant('Voice');
    const b = await registerTenant('Other');
    const res = await call('POST', '/api/v1/incidents/voice', {
      token: a.token,
      body: { transcript: 'smoke seen near the east warehouse door' },
    });
    expect(res.status).toBe(201);
    expect(res.body.voice).toMatchObject({ transcript: 'smoke seen near the east warehouse door', audio_key: null });
    const foreign = await call('POST', '/api/v1/incidents/voice', {
      token: b.token,
      body: { upload_key: `tenants/${a.tenantId}/audio/x.wav` },
    });
    expect(foreign.status).toBe(404);
    const nothing = await call('POST', '/api/v1/incidents/voice', { token: a.token, body: {} });
    expect(nothing.status).toBe(422);
  });

  it('"near gate fire" opens no critical fire: the draft asks what kind of incident it is, naming the word, and the answer decides', async () => {
    const org = await registerTenant('Cautious');
    const res = await call('POST', '/api/v1/incidents/voice', {
      token: org.token,
      body: { transcript: 'a man near gate fire' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'draft', type: null, severity: 'medium' });
    expect(res.body.voice.doubts).toEqual([{ field: 'type', word: 'fire' }]);
    expect(res.body.voice.follow_up_questions).toContain(
      'We heard "fire" but cannot be sure of it. What kind of incident is it (for example intrusion, suspicious activity, fire)?',
    );
    const done = await call('PATCH', `/api/v1/incidents/${res.body.incident_id}/complete`, {
      token: org.token,
      body: { answers: { type: 'suspicious_activity', severity: 'medium' } },
    });
    expect(done.body).toMatchObject({ type: 'suspicious_activity', severity: 'medium' });
    expect(done.body.voice.missing_fields).not.toContain('type');
  });
});

describe('incidents.voiceUploadUrl', () => {
  it("hands out a PUT URL for <id>.<format> under the caller's own audio prefix, length signed, valid 15 minutes", async () => {
    const org = await registerTenant('Voice');
    const before = Date.now();
    const res = await call('POST', '/api/v1/incidents/voice/upload-url', {
      token: org.token,
      body: { format: 'mp3', size_bytes: 123456 },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      upload_key: expect.stringMatching(new RegExp(`^${tenantAudioPrefix(org.tenantId)}[0-9a-f-]{36}\\.mp3$`)),
      upload_url: expect.any(String),
      method: 'PUT',
      headers: { 'Content-Length': '123456', 'Content-Type': 'audio/mpeg' },
      expires_at: expect.any(String),
      max_bytes: MAX_VOICE_UPLOAD_BYTES,
    });
    const url = new URL(res.body.upload_url);
    expect(decodeURIComponent(url.pathname)).toBe(`/${BUCKET}/${res.body.upload_key}`);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toContain('content-length');
    const expires = Date.parse(res.body.expires_at);
    expect(expires - before).toBeGreaterThanOrEqual(15 * 60 * 1000 - 1000);
    expect(expires - before).toBeLessThanOrEqual(15 * 60 * 1000 + 5000);
    // Nothing is stored until the client PUTs.
    expect(await headObject(res.body.upload_key)).toBeNull();
  });

  it('the URL takes only the length it was signed for: a longer body is 403 and nothing is stored', async () => {
    const org = await registerTenant('Voice');
    const res = await call('POST', '/api/v1/incidents/voice/upload-url', {
      token: org.token,
      body: { format: 'wav', size_bytes: 100 },
    });
    expect(res.status).toBe(201);
    const put = await fetch(res.body.upload_url, {
      method: 'PUT',
      headers: { 'Content-Type': res.body.headers['Content-Type'] },
      body: Buffer.alloc(5000),
    });
    expect(put.status).toBe(403);
    expect(await headObject(res.body.upload_key)).toBeNull();
  });

  it('a recording PUT to the URL becomes a draft through its key, whose transcript and fields carry its words', async () => {
    const org = await registerTenant('Voice');
    const ticket = await uploadRecording(org.token, speak(REPORT), 'wav');
    const res = await call('POST', '/api/v1/incidents/voice', {
      token: org.token,
      body: { upload_key: ticket.upload_key },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'draft', source: 'voice', tenant_id: org.tenantId });
    expect(res.body.voice).toMatchObject({ audio_key: ticket.upload_key, transcription_status: 'completed' });
    expect(REPORT_WORDS.filter((w) => res.body.voice.transcript.includes(w)).length).toBeGreaterThanOrEqual(4);
    expect(`${res.body.voice.fields.location_text}`).toMatch(/gate|fence/);
  });

  it("without a format the key's extension gives it: a FLAC upload is read as FLAC", async () => {
    // Read as the old default (wav), sox refuses FLAC bytes; only the extension makes this work.
    const org = await registerTenant('Voice');
    const ticket = await uploadRecording(org.token, speak(REPORT, 'flac'), 'flac');
    expect(ticket.upload_key.endsWith('.flac')).toBe(true);
    expect(ticket.headers['Content-Type']).toBe('audio/flac');
    const res = await call('POST', '/api/v1/incidents/voice', {
      token: org.token,
      body: { upload_key: ticket.upload_key },
    });
    expect(res.status).toBe(201);
    expect(REPORT_WORDS.filter((w) => res.body.voice.transcript.includes(w)).length).toBeGreaterThanOrEqual(4);
  });

  it('needs OPERATOR: a VIEWER is 403', async () => {
    const org = await registerTenant('Voice');
    const viewer = await createUser(org.token, 'VIEWER');
    const res = await call('POST', '/api/v1/incidents/voice/upload-url', {
      token: viewer.token,
      body: { format: 'wav', size_bytes: 1000 },
    });
    expect(res.status).toBe(403);
    const operator = await createUser(org.token, 'OPERATOR');
    expect(
      (
        await call('POST', '/api/v1/incidents/voice/upload-url', {
          token: operator.token,
          body: { format: 'wav', size_bytes: 1000 },
        })
      ).status,
    ).toBe(201);
  });

  it('MP3 and Ogg recordings as sox encodes them begin as their format and become drafts', async () => {
    const org = await registerTenant('Voice');
    for (const format of ['mp3', 'ogg'] as const) {
      const res = await call('POST', '/api/v1/incidents/voice', {
        token: org.token,
        body: { audio_base64: speak(REPORT, format).toString('base64'), format },
      });
      expect(res.status, `${format}: ${res.text}`).toBe(201);
      expect(res.body.voice.audio_key.endsWith(`.${format}`)).toBe(true);
    }
  });

  it('a recording that is not one is 422 naming the problem, and nothing is stored', async () => {
    const org = await registerTenant('Voice');
    const report = (body: Record<string, unknown>) =>
      call('POST', '/api/v1/incidents/voice', { token: org.token, body });
    const notBase64 = await report({ audio_base64: 'there is a fire at gate 4!', format: 'wav' });
    expect(notBase64.status).toBe(422);
    expect(notBase64.body.detail[0]).toMatchObject({ loc: ['body', 'audio_base64'], type: 'base64_format' });
    const text = await report({ audio_base64: Buffer.from('there is a fire at gate 4').toString('base64') });
    expect(text.status).toBe(422);
    expect(text.body.detail[0]).toMatchObject({ loc: ['body', 'audio_base64'], type: 'audio_format' });
    expect(text.body.detail[0].msg).toContain('not a wav recording');
    const mp3AsFlac = await report({ audio_base64: speak(REPORT).toString('base64'), format: 'flac' });
    expect(mp3AsFlac.status).toBe(422);
    // Begins as a WAV file, then nothing a recogniser can read.
    const header = Buffer.concat([Buffer.from('RIFF\0\0\0\0WAVEfmt '), Buffer.alloc(64, 7)]);
    const unreadable = await report({ audio_base64: header.toString('base64'), format: 'wav' });
    expect(unreadable.status, unreadable.text).toBe(422);
    expect(unreadable.body.detail[0]).toMatchObject({ loc: ['body', 'audio_base64'], type: 'unreadable_audio' });
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: tenantAudioPrefix(org.tenantId) }));
    expect(listed.KeyCount ?? 0).toBe(0);
  });

  it('validates the format and the size: past the limit, zero, an unknown format or property is 422', async () => {
    const org = await registerTenant('Voice');
    const ask = (body: Record<string, unknown>) =>
      call('POST', '/api/v1/incidents/voice/upload-url', { token: org.token, body });
    const locs = (res: { body: { detail: { loc: string[] }[] } }) => res.body.detail.map((d) => d.loc.join('.')).sort();
    const tooLarge = await ask({ format: 'wav', size_bytes: MAX_VOICE_UPLOAD_BYTES + 1 });
    expect(tooLarge.status).toBe(422);
    expect(locs(tooLarge)).toEqual(['body.size_bytes']);
    expect((await ask({ format: 'wav', size_bytes: MAX_VOICE_UPLOAD_BYTES })).status).toBe(201);
    const bad = await ask({ format: 'aiff', size_bytes: 0 });
    expect(bad.status).toBe(422);
    expect(locs(bad)).toEqual(['body.format', 'body.size_bytes']);
    expect((await ask({ format: 'wav', size_bytes: 10, tenant_id: org.tenantId })).status).toBe(422);
    expect((await ask({ size_bytes: 10 })).status).toBe(422);
  });

  it('an uploaded recording of another tenant is 404 to the voice route, and no draft is opened', async () => {
    const a = await registerTenant('Voice');
    const b = await registerTenant('Other');
    const ticket = await uploadRecording(a.token, speak('smoke near the east door'), 'wav');
    const res = await call('POST', '/api/v1/incidents/voice', {
      token: b.token,
      body: { upload_key: ticket.upload_key },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Recording not found' });
    expect((await call('GET', '/api/v1/incidents', { token: b.token })).body.total).toBe(0);
  });

  it('a stored recording over the limit is 413 and opens no draft', async () => {
    // Only a PUT past the signed length could store one (S3 refuses that; s3rver checks no
    // signature), so it is put here directly: the size check in the voice route is what is tested.
    const org = await registerTenant('Voice');
    const key = `${tenantAudioPrefix(org.tenantId)}oversized.wav`;
    await putLarge(key, MAX_VOICE_UPLOAD_BYTES + 1);
    try {
      const res = await call('POST', '/api/v1/incidents/voice', { token: org.token, body: { upload_key: key } });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ detail: `The recording is larger than ${MAX_VOICE_UPLOAD_BYTES} bytes` });
      expect((await call('GET', '/api/v1/incidents', { token: org.token })).body.total).toBe(0);
      // Refused, not deleted: a key names no upload of ours, so it may be something else's recording.
      expect(await headObject(key)).toEqual({ sizeBytes: MAX_VOICE_UPLOAD_BYTES + 1 });
    } finally {
      await deleteObjectsUnder(tenantAudioPrefix(org.tenantId));
    }
  });
});

describe('incidents.complete', () => {
  it('fills what is missing; only a draft', async () => {
    const org = await registerTenant('Voice');
    const draft = (
      await call('POST', '/api/v1/incidents/voice', { token: org.token, body: { transcript: 'someone at the fence' } })
    ).body;
    const done = await call('PATCH', `/api/v1/incidents/${draft.incident_id}/complete`, {
      token: org.token,
      body: {
        answers: { severity: 'high', occurred_at_text: 'ten minutes ago', location_text: 'north fence by gate 4' },
      },
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
      await call('POST', '/api/v1/incidents/voice', {
        token: org.token,
        body: { transcript: 'there is a suspicious person near gate four at the north fence' },
      })
    ).body;
    const id = draft.incident_id;
    const respond = (body: Record<string, unknown>) =>
      call('PATCH', `/api/v1/incidents/${id}/respond`, { token: org.token, body });
    expect((await respond({ status: 'in_progress' })).status).toBe(409);
    await call('PATCH', `/api/v1/incidents/${id}/complete`, {
      token: org.token,
      body: { answers: { severity: 'high' } },
    });
    const final = await call('POST', `/api/v1/incidents/${id}/finalize`, { token: org.token, body: {} });
    expect(final.status).toBe(200);
    expect(final.body.status).toBe('confirmed');
    expect(final.body.summary.length).toBeGreaterThan(10);
    expect(final.body.sla_due_at).toBeTruthy();
    expect((await call('POST', `/api/v1/incidents/${id}/finalize`, { token: org.token, body: {} })).status).toBe(409);
    expect(
      (await call('PATCH', `/api/v1/incidents/${id}/complete`, { token: org.token, body: { answers: { title: 'x' } } }))
        .status,
    ).toBe(409);
    expect((await call('POST', await ackPathOf(org.tenantId, id))).body.status).toBe('acknowledged');
    expect((await respond({ status: 'in_progress', assignee_id: org.userId })).body.status).toBe('in_progress');
    expect(
      (await respond({ status: 'resolved', resolution: 'true_positive', resolution_notes: 'Person escorted out' })).body
        .status,
    ).toBe('resolved');
    expect((await respond({ status: 'closed' })).body.status).toBe('closed');
    expect((await respond({ status: 'in_progress' })).status).toBe(409);
  });
});
