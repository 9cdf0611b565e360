/**
 * The AWS speech path against mocked clients (aws-sdk-client-mock): the job reads the recording
 * from the tenant's prefix and writes the transcript there, a slow job comes back `pending` within
 * the budget, and the state-change path reads the transcript of the finished job.
 */
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  ConflictException,
  GetTranscriptionJobCommand,
  StartTranscriptionJobCommand,
  TranscribeClient,
  type TranscriptionJobStatus,
} from '@aws-sdk/client-transcribe';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  finishTranscriptionJob,
  jobNameFor,
  transcribeStateChange,
  TranscribeSpeechRecognizer,
  transcriptKeyFor,
  transcriptOf,
  type TranscribeDeps,
} from '../../shared/adapters/speech/transcribe.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const transcribeMock = mockClient(TranscribeClient);
const s3Mock = mockClient(S3Client);
// The stubs are on the SDK's client classes, which the next file of this worker shares (fresh-file.ts).
afterAll(() => {
  transcribeMock.restore();
  s3Mock.restore();
});

const BUCKET = 'gatehouse-files';
const TENANT = '0b6a3c1e-1111-4222-8333-444455556666';
const AUDIO_KEY = `tenants/${TENANT}/audio/2026/11/rec-1.wav`;
const TEXT = 'there is a suspicious person near gate four at the north fence';

const deps = (over: Partial<TranscribeDeps> = {}): TranscribeDeps => ({
  transcribe: new TranscribeClient({ region: 'eu-west-1' }),
  s3: new S3Client({ region: 'eu-west-1' }),
  bucket: BUCKET,
  languageCode: 'en-US',
  pollIntervalMs: 10,
  ...over,
});

const job = (status: TranscriptionJobStatus, name = jobNameFor(AUDIO_KEY)) => ({
  TranscriptionJob: {
    TranscriptionJobName: name,
    TranscriptionJobStatus: status,
    Media: { MediaFileUri: `s3://${BUCKET}/${AUDIO_KEY}` },
  },
});

/** A GetObject body as the SDK hands it out; only the method the adapter uses. */
const transcriptBody = (text: string) =>
  ({
    transformToString: async () =>
      JSON.stringify({ jobName: 'x', results: { transcripts: [{ transcript: text }], items: [] } }),
  }) as never;

beforeEach(() => {
  transcribeMock.reset();
  s3Mock.reset();
});

describe('TranscribeSpeechRecognizer', () => {
  it('starts the job on the recording under the tenant prefix and writes the transcript there', async () => {
    transcribeMock.on(StartTranscriptionJobCommand).resolves({});
    transcribeMock.on(GetTranscriptionJobCommand).resolvesOnce(job('IN_PROGRESS')).resolves(job('COMPLETED'));
    s3Mock.on(GetObjectCommand).resolves({ Body: transcriptBody(TEXT) });

    const result = await new TranscribeSpeechRecognizer(deps()).transcribe({
      audioKey: AUDIO_KEY,
      format: 'wav',
      tenantId: TENANT,
      budgetMs: 5000,
    });

    expect(result).toEqual({ status: 'completed', transcript: TEXT, unsureWords: [] });
    const start = transcribeMock.commandCalls(StartTranscriptionJobCommand)[0]!.args[0].input;
    expect(start.Media?.MediaFileUri).toBe(`s3://${BUCKET}/${AUDIO_KEY}`);
    expect(start.Media?.MediaFileUri?.startsWith(`s3://${BUCKET}/tenants/${TENANT}/audio/`)).toBe(true);
    expect(start.MediaFormat).toBe('wav');
    expect(start.OutputBucketName).toBe(BUCKET);
    expect(start.OutputKey?.startsWith(`tenants/${TENANT}/`)).toBe(true);
    expect(start.TranscriptionJobName).toBe(jobNameFor(AUDIO_KEY));
    expect(start.TranscriptionJobName).toMatch(/^[0-9a-zA-Z._-]{1,200}$/);
    const read = s3Mock.commandCalls(GetObjectCommand)[0]!.args[0].input;
    expect(read).toEqual({ Bucket: BUCKET, Key: start.OutputKey });
  });

  it('refuses a key outside the tenant prefix before calling AWS', async () => {
    const recognizer = new TranscribeSpeechRecognizer(deps());
    const other = 'ffffffff-1111-4222-8333-444455556666';
    for (const audioKey of [
      `tenants/${other}/audio/rec.wav`,
      `tenants/${TENANT}/events/rec.wav`,
      `tenants/${TENANT}/audio/../x.wav`,
      'rec.wav',
    ]) {
      await expect(
        recognizer.transcribe({ audioKey, format: 'wav', tenantId: TENANT, budgetMs: 1000 }),
      ).rejects.toThrow(/not under/);
    }
    expect(transcribeMock.calls()).toHaveLength(0);
  });

  it('answers pending with the job name when the job outlasts the budget', async () => {
    transcribeMock.on(StartTranscriptionJobCommand).resolves({});
    transcribeMock.on(GetTranscriptionJobCommand).resolves(job('IN_PROGRESS'));

    // A clock of its own: the waits pass at once, and what the budget allows is exact.
    let clock = 0;
    const result = await new TranscribeSpeechRecognizer(
      deps({ pollIntervalMs: 20, now: () => clock, sleep: async (ms) => void (clock += ms) }),
    ).transcribe({ audioKey: AUDIO_KEY, format: 'mp3', tenantId: TENANT, budgetMs: 150 });

    expect(result).toEqual({ status: 'pending', jobName: jobNameFor(AUDIO_KEY) });
    // Polls at 0, 20, ..., 140; one more wait would end at 160, past the budget: it answers then.
    expect(clock).toBe(140);
    expect(transcribeMock.commandCalls(GetTranscriptionJobCommand)).toHaveLength(8);
    expect(s3Mock.calls()).toHaveLength(0);
  });

  it('waits for the existing job when the same recording was submitted before', async () => {
    transcribeMock
      .on(StartTranscriptionJobCommand)
      .rejects(new ConflictException({ message: 'exists', $metadata: {} }));
    transcribeMock.on(GetTranscriptionJobCommand).resolves(job('COMPLETED'));
    s3Mock.on(GetObjectCommand).resolves({ Body: transcriptBody(TEXT) });
    const result = await new TranscribeSpeechRecognizer(deps()).transcribe({
      audioKey: AUDIO_KEY,
      format: 'wav',
      tenantId: TENANT,
      budgetMs: 1000,
    });
    expect(result.status).toBe('completed');
  });

  it('reports a failed job as a transcription failure', async () => {
    transcribeMock.on(StartTranscriptionJobCommand).resolves({});
    transcribeMock
      .on(GetTranscriptionJobCommand)
      .resolves({ TranscriptionJob: { ...job('FAILED').TranscriptionJob, FailureReason: 'Unsupported audio' } });
    await expect(
      new TranscribeSpeechRecognizer(deps()).transcribe({
        audioKey: AUDIO_KEY,
        format: 'wav',
        tenantId: TENANT,
        budgetMs: 1000,
      }),
    ).rejects.toThrow(/Unsupported audio/);
  });
});

describe('completing a pending job from its state-change event', () => {
  const event = {
    version: '0',
    source: 'aws.transcribe',
    'detail-type': 'Transcribe Job State Change',
    detail: { TranscriptionJobName: jobNameFor(AUDIO_KEY), TranscriptionJobStatus: 'COMPLETED' },
  };

  it('names the job from the event, and ignores other events', () => {
    expect(transcribeStateChange(event)).toEqual({ jobName: jobNameFor(AUDIO_KEY), status: 'COMPLETED' });
    expect(transcribeStateChange({ ...event, source: 'aws.s3' })).toBeNull();
    expect(transcribeStateChange({ ...event, detail: { TranscriptionJobName: 'someone-elses-job' } })).toBeNull();
  });

  it('reads the transcript of the finished job, with the tenant from its media URI', async () => {
    transcribeMock.on(GetTranscriptionJobCommand).resolves(job('COMPLETED'));
    s3Mock.on(GetObjectCommand).resolves({ Body: transcriptBody(TEXT) });

    const finished = await finishTranscriptionJob(deps(), transcribeStateChange(event)!.jobName);

    expect(finished).toEqual({
      status: 'completed',
      jobName: jobNameFor(AUDIO_KEY),
      tenantId: TENANT,
      audioKey: AUDIO_KEY,
      transcript: TEXT,
      unsureWords: [],
    });
    expect(s3Mock.commandCalls(GetObjectCommand)[0]!.args[0].input).toEqual({
      Bucket: BUCKET,
      Key: transcriptKeyFor(TENANT, jobNameFor(AUDIO_KEY)),
    });
  });

  it('reports a failed job and leaves a running one pending', async () => {
    transcribeMock.on(GetTranscriptionJobCommand).resolvesOnce(job('FAILED')).resolves(job('IN_PROGRESS'));
    expect((await finishTranscriptionJob(deps(), jobNameFor(AUDIO_KEY))).status).toBe('failed');
    expect(await finishTranscriptionJob(deps(), jobNameFor(AUDIO_KEY))).toEqual({
      status: 'pending',
      jobName: jobNameFor(AUDIO_KEY),
    });
  });

  it('refuses a job whose media is not in our bucket', async () => {
    transcribeMock.on(GetTranscriptionJobCommand).resolves({
      TranscriptionJob: {
        TranscriptionJobName: 'gh-x',
        TranscriptionJobStatus: 'COMPLETED',
        Media: { MediaFileUri: 's3://elsewhere/tenants/t/audio/a.wav' },
      },
    });
    await expect(finishTranscriptionJob(deps(), 'gh-x')).rejects.toThrow(/not one of ours/);
  });
});

describe('jobNameFor', () => {
  it('is stable, safe and at most 200 characters', () => {
    expect(jobNameFor(AUDIO_KEY)).toBe(jobNameFor(AUDIO_KEY));
    expect(jobNameFor(`tenants/${TENANT}/audio/a b+c.wav`)).toMatch(/^[0-9a-zA-Z._-]+$/);
    const long = jobNameFor(`tenants/${TENANT}/audio/${'x'.repeat(300)}.wav`);
    expect(long.length).toBeLessThanOrEqual(200);
    expect(long).not.toBe(jobNameFor(`tenants/${TENANT}/audio/${'x'.repeat(301)}.wav`));
  });
});

describe('transcriptOf, on a captured Transcribe output file', () => {
  it('reads the transcript and names the words under 0.7 confidence, the misheard "It\'s" among them', () => {
    const file = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', 'fixtures', 'transcribe', 'music-to-my-ears.json'), 'utf8'),
    );
    expect(transcriptOf(file)).toEqual({
      transcript: "Amazon transcribe It's Music to my ears Well, speech Anyway!",
      unsureWords: ["it's", 'well'],
    });
  });
});
