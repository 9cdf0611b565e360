/**
 * The AWS voice path when a Transcribe job outlives the request: this file runs with
 * SPEECH_MODE=aws, Transcribe mocked (aws-sdk-client-mock: it has no local counterpart) and
 * everything else real (DynamoDB Local, s3rver, the local extractor). A slow job leaves a pending
 * draft; the job's state-change event, through the `transcription-finished` worker, completes it.
 */
import { GetTranscriptionJobCommand, StartTranscriptionJobCommand, TranscribeClient } from '@aws-sdk/client-transcribe';
import type { EventBridgeEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  // Before shared/config.ts loads: Transcribe for speech, the offline extractor for fields.
  process.env.SPEECH_MODE = 'aws';
  process.env.AI_MODE = 'local';
});

import { handler } from '../../functions/workers/transcription-finished.js';
import { putObject } from '../../shared/adapters/s3.js';
import { transcriptKeyFor } from '../../shared/adapters/speech/index.js';
import { BUCKET } from '../../shared/adapters/s3.js';
import { draftFromVoice } from '../../shared/domain/incidents/drafts.js';
import { installLocalAdapters } from '../../shared/local/compose.js';
import { workerContext } from '../../shared/local/lambda-context.js';
import { workerById } from '../../shared/workers.js';
import { call, registerTenant, type RegisteredTenant } from '../support/api.js';
import { actorOf, outboxOf } from '../support/seed.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';

const transcribe = mockClient(TranscribeClient);
const TEXT = 'suspicious person near gate four at the north fence';

/** Transcribe accepts the job and keeps working on it past the request's budget. */
function slowJob() {
  transcribe.on(StartTranscriptionJobCommand).resolves({});
  // Each poll moves this process's clock 30 s on: the 20 s budget runs out after the first one.
  transcribe.on(GetTranscriptionJobCommand).callsFake(() => {
    vi.setSystemTime(Date.now() + 30_000);
    return { TranscriptionJob: { TranscriptionJobStatus: 'IN_PROGRESS' } };
  });
}

/** What Transcribe reports once the job ended, with the media it was given. */
function jobEnded(jobName: string, mediaKey: string, status: 'COMPLETED' | 'FAILED') {
  transcribe.on(GetTranscriptionJobCommand, { TranscriptionJobName: jobName }).resolves({
    TranscriptionJob: {
      TranscriptionJobName: jobName,
      TranscriptionJobStatus: status,
      Media: { MediaFileUri: `s3://${BUCKET}/${mediaKey}` },
      ...(status === 'FAILED' ? { FailureReason: 'The media format could not be determined' } : {}),
    },
  });
}

const stateChange = (jobName: string, status: string): EventBridgeEvent<string, unknown> => ({
  version: '0',
  id: 'e-1',
  'detail-type': 'Transcribe Job State Change',
  source: 'aws.transcribe',
  account: '000000000000',
  time: new Date().toISOString(),
  region: 'us-east-1',
  resources: [],
  detail: { TranscriptionJobName: jobName, TranscriptionJobStatus: status },
});

const runWorker = (jobName: string, status = 'COMPLETED') =>
  handler(stateChange(jobName, status), workerContext(workerById('transcription-finished'), 'us-east-1'));

async function pendingDraft(org: RegisteredTenant) {
  slowJob();
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    return await draftFromVoice(actorOf(org), systemTenant(org.tenantId), {
      // A WAV header and nothing a recogniser could read: Transcribe is mocked.
      audio_base64: Buffer.from('RIFF\0\0\0\0WAVEfmt not-really-audio').toString('base64'),
      format: 'wav',
    });
  } finally {
    vi.useRealTimers();
  }
}

const messages = async (tenantId: string, incidentId: string) =>
  (await outboxOf(tenantId)).filter((m) => m.detail.incident_id === incidentId).map((m) => m.detail_type);

// As the local runtime composes it, with this file's settings: the offline extractor (AI_MODE),
// Transcribe (SPEECH_MODE=aws, mocked above).
beforeAll(() => installLocalAdapters());
beforeEach(() => transcribe.reset());
// The stub is on the SDK's client class, which the next file of this worker shares (fresh-file.ts).
afterAll(() => transcribe.restore());

describe('worker transcription-finished', () => {
  it('a slow job leaves a pending draft; its state-change event completes it with transcript, fields and questions', async () => {
    const org = await registerTenant('Voice');
    const draft = await pendingDraft(org);
    const job = draft.voice!.transcription_job!;
    expect(draft.voice).toMatchObject({
      transcription_status: 'pending',
      transcript: null,
      audio_key: expect.stringMatching(`^tenants/${org.tenantId}/audio/`),
    });
    expect(job).toMatch(/^gh-/);
    // The media Transcribe was given is the stored recording, under the tenant's prefix.
    const started = transcribe.commandCalls(StartTranscriptionJobCommand)[0]!.args[0].input;
    expect(started.Media?.MediaFileUri).toBe(`s3://${BUCKET}/${draft.voice!.audio_key}`);

    // Meanwhile an operator answers one question; that answer must survive.
    const answered = await call('PATCH', `/api/v1/incidents/${draft.incident_id}/complete`, {
      token: org.token,
      body: { answers: { severity: 'high' } },
    });
    expect(answered.status).toBe(200);

    // Transcribe writes the transcript where it was told to, then reports the job completed.
    await putObject(
      transcriptKeyFor(org.tenantId, job),
      Buffer.from(JSON.stringify({ results: { transcripts: [{ transcript: TEXT }] } })),
      'application/json',
    );
    jobEnded(job, draft.voice!.audio_key!, 'COMPLETED');
    const outcome = await runWorker(job);
    expect(outcome).toEqual({ job, status: 'completed', completed: [draft.incident_id] });

    const res = await call('GET', `/api/v1/incidents/${draft.incident_id}`, { token: org.token });
    expect(res.body.status).toBe('draft');
    expect(res.body.voice).toMatchObject({ transcription_status: 'completed', transcript: TEXT });
    expect(res.body.voice.fields).toMatchObject({ severity: 'high' });
    expect(JSON.stringify(res.body.voice.fields).toLowerCase()).toContain('gate four');
    expect(res.body.severity).toBe('high');
    expect(res.body.location_text?.toLowerCase()).toContain('gate four');
    expect(res.body.voice.missing_fields).not.toContain('location_text');
    expect(await messages(org.tenantId, draft.incident_id)).toContain('incident.transcribed');
    const timeline = (await call('GET', `/api/v1/replay/${draft.incident_id}`, { token: org.token })).body.timeline as {
      kind: string;
      by: string;
    }[];
    expect(timeline.at(-1)).toMatchObject({ kind: 'transcribed', by: 'system' });

    // The same event again (EventBridge delivers at least once): nothing changes.
    expect(await runWorker(job)).toEqual({ job, status: 'completed', completed: [] });
    const again = await call('GET', `/api/v1/incidents/${draft.incident_id}`, { token: org.token });
    expect(again.body.updated_at).toBe(res.body.updated_at);

    // And the draft goes on as any other.
    const final = await call('POST', `/api/v1/incidents/${draft.incident_id}/finalize`, { token: org.token, body: {} });
    expect(final.status).toBe(200);
    expect(final.body.status).toBe('confirmed');
  });

  it('a failed job marks the draft failed with the reason; its questions ask for everything still missing', async () => {
    const org = await registerTenant('Voice');
    const draft = await pendingDraft(org);
    const job = draft.voice!.transcription_job!;
    jobEnded(job, draft.voice!.audio_key!, 'FAILED');
    expect(await runWorker(job, 'FAILED')).toMatchObject({ status: 'failed', completed: [draft.incident_id] });
    const res = await call('GET', `/api/v1/incidents/${draft.incident_id}`, { token: org.token });
    expect(res.body.voice).toMatchObject({
      transcription_status: 'failed',
      transcription_error: 'The media format could not be determined',
      transcript: null,
    });
    expect(res.body.voice.follow_up_questions.length).toBeGreaterThan(0);
  });

  it('a draft finalized before its transcript came keeps its own fields; the transcript still lands', async () => {
    const org = await registerTenant('Voice');
    const draft = await pendingDraft(org);
    const job = draft.voice!.transcription_job!;
    const final = await call('POST', `/api/v1/incidents/${draft.incident_id}/finalize`, { token: org.token, body: {} });
    expect(final.status).toBe(200);
    await putObject(
      transcriptKeyFor(org.tenantId, job),
      Buffer.from(JSON.stringify({ results: { transcripts: [{ transcript: `urgent ${TEXT}` }] } })),
      'application/json',
    );
    jobEnded(job, draft.voice!.audio_key!, 'COMPLETED');
    expect(await runWorker(job)).toMatchObject({ completed: [draft.incident_id] });
    const res = await call('GET', `/api/v1/incidents/${draft.incident_id}`, { token: org.token });
    expect(res.body).toMatchObject({
      status: 'confirmed',
      title: final.body.title,
      severity: final.body.severity,
      sla_due_at: final.body.sla_due_at,
    });
    expect(res.body.voice).toMatchObject({ transcription_status: 'completed', transcript: `urgent ${TEXT}` });
  });

  it('trusts the job, not the event: a job whose media is not under a tenant prefix is refused, and no draft changes', async () => {
    const org = await registerTenant('Voice');
    const draft = await pendingDraft(org);
    const job = draft.voice!.transcription_job!;
    jobEnded(job, 'somewhere/else/recording.wav', 'COMPLETED');
    await expect(runWorker(job)).rejects.toThrow(/not one of ours/);
    const res = await call('GET', `/api/v1/incidents/${draft.incident_id}`, { token: org.token });
    expect(res.body.voice.transcription_status).toBe('pending');
  });

  it('ignores what is not a state change of one of our jobs', async () => {
    expect(
      await handler(
        { ...stateChange('other-team-job', 'COMPLETED') },
        workerContext(workerById('transcription-finished'), 'us-east-1'),
      ),
    ).toBeNull();
    expect(transcribe.commandCalls(GetTranscriptionJobCommand)).toHaveLength(0);
  });
});
