/**
 * Amazon Transcribe: one batch job per recording, read from and written to the files bucket under
 * the tenant's prefix. The voice route waits for the job within a budget that fits API Gateway's
 * timeout; a longer job leaves the draft pending, and the job's state-change event (EventBridge
 * "Transcribe Job State Change") finishes it through `finishTranscriptionJob`.
 */
import { createHash } from 'node:crypto';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  ConflictException,
  GetTranscriptionJobCommand,
  StartTranscriptionJobCommand,
  type LanguageCode,
  type TranscribeClient,
  type TranscriptionJob,
} from '@aws-sdk/client-transcribe';
import {
  assertTenantAudioKey,
  TranscriptionFailedError,
  type SpeechRecognizer,
  type TranscribeInput,
  type TranscribeResult,
  type UnsureWords,
  UNSURE_BELOW,
} from './types.js';

export interface TranscribeDeps {
  transcribe: TranscribeClient;
  s3: S3Client;
  bucket: string;
  languageCode: string;
  /** Between two GetTranscriptionJob calls (default 1500 ms; jobs take seconds at best). */
  pollIntervalMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** Transcribe's limits on a job name: [0-9a-zA-Z._-], at most 200 characters, unique per account. */
const JOB_NAME_MAX = 200;

/**
 * The job name for a recording: the key without `tenants/` and `audio/`, made safe. Derived, not
 * random, so a retried request finds its job (ConflictException) instead of starting another.
 */
export function jobNameFor(audioKey: string): string {
  const match = /^tenants\/([^/]+)\/audio\/(.+)$/.exec(audioKey);
  if (!match) throw new Error(`audio key ${audioKey} is not under a tenant's audio prefix`);
  const name = `gh-${match[1]}-${match[2]!.replace(/[^0-9a-zA-Z._-]/g, '_')}`;
  if (name.length <= JOB_NAME_MAX) return name;
  const hash = createHash('sha256').update(audioKey).digest('hex').slice(0, 16);
  return `${name.slice(0, JOB_NAME_MAX - hash.length - 1)}-${hash}`;
}

/** Where Transcribe writes a job's transcript (a key ending in .json is used as the file name). */
export const transcriptKeyFor = (tenantId: string, jobName: string) =>
  `tenants/${tenantId}/transcripts/${jobName}.json`;

/** `s3://bucket/key` -> key, only for our bucket. */
function keyOfUri(uri: string | undefined, bucket: string): string | null {
  const prefix = `s3://${bucket}/`;
  return uri?.startsWith(prefix) ? uri.slice(prefix.length) : null;
}

interface TranscriptFile {
  results?: {
    transcripts?: { transcript?: string }[];
    /** One per word or punctuation mark, with the confidence of its best alternative. */
    items?: { type?: string; alternatives?: { content?: string; confidence?: string }[] }[];
  };
}

/** The transcript and the words Transcribe gave less than UNSURE_BELOW confidence. */
export function transcriptOf(body: TranscriptFile): { transcript: string; unsureWords: UnsureWords } {
  const transcript = (body.results?.transcripts ?? [])
    .map((t) => t.transcript ?? '')
    .join(' ')
    .trim();
  const unsure = new Set<string>();
  for (const item of body.results?.items ?? []) {
    const best = item.alternatives?.[0];
    if (item.type !== 'pronunciation' || !best?.content) continue;
    if (Number(best.confidence ?? '1') < UNSURE_BELOW) unsure.add(best.content.toLowerCase());
  }
  return { transcript, unsureWords: [...unsure] };
}

async function readTranscript(
  deps: TranscribeDeps,
  key: string,
): Promise<{ transcript: string; unsureWords: UnsureWords }> {
  const out = await deps.s3.send(new GetObjectCommand({ Bucket: deps.bucket, Key: key }));
  return transcriptOf(JSON.parse(await out.Body!.transformToString()) as TranscriptFile);
}

const sleeper = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class TranscribeSpeechRecognizer implements SpeechRecognizer {
  constructor(private readonly deps: TranscribeDeps) {}

  async transcribe(input: TranscribeInput): Promise<TranscribeResult> {
    assertTenantAudioKey(input.tenantId, input.audioKey);
    const { transcribe, bucket } = this.deps;
    const now = this.deps.now ?? Date.now;
    const sleep = this.deps.sleep ?? sleeper;
    const interval = this.deps.pollIntervalMs ?? 1500;
    const deadline = now() + input.budgetMs;
    const jobName = jobNameFor(input.audioKey);
    const transcriptKey = transcriptKeyFor(input.tenantId, jobName);
    try {
      await transcribe.send(
        new StartTranscriptionJobCommand({
          TranscriptionJobName: jobName,
          LanguageCode: this.deps.languageCode as LanguageCode,
          MediaFormat: input.format,
          Media: { MediaFileUri: `s3://${bucket}/${input.audioKey}` },
          OutputBucketName: bucket,
          OutputKey: transcriptKey,
        }),
      );
    } catch (error) {
      // The same recording was submitted before (a retry): wait for that job.
      if (!(error instanceof ConflictException || (error as Error).name === 'ConflictException')) throw error;
    }
    for (;;) {
      const job = await this.job(jobName);
      if (job.TranscriptionJobStatus === 'COMPLETED') {
        return { status: 'completed', ...(await readTranscript(this.deps, transcriptKey)) };
      }
      if (job.TranscriptionJobStatus === 'FAILED') {
        throw new TranscriptionFailedError(
          `transcription job ${jobName} failed: ${job.FailureReason ?? 'no reason given'}`,
        );
      }
      // Another poll must fit in the budget; otherwise the state-change event finishes the job.
      if (now() + interval >= deadline) return { status: 'pending', jobName };
      await sleep(interval);
    }
  }

  private async job(jobName: string): Promise<TranscriptionJob> {
    const out = await this.deps.transcribe.send(new GetTranscriptionJobCommand({ TranscriptionJobName: jobName }));
    if (!out.TranscriptionJob) throw new Error(`transcription job ${jobName} has no description`);
    return out.TranscriptionJob;
  }
}

export type FinishedTranscription =
  | {
      status: 'completed';
      jobName: string;
      tenantId: string;
      audioKey: string;
      transcript: string;
      unsureWords: UnsureWords;
    }
  | { status: 'failed'; jobName: string; tenantId: string; audioKey: string; reason: string }
  | { status: 'pending'; jobName: string };

/**
 * Finishes a job that outlived the request: its state, and for a completed job the transcript.
 * The tenant comes from the job's own media URI, checked against the tenant prefix, never from the
 * event alone.
 */
export async function finishTranscriptionJob(deps: TranscribeDeps, jobName: string): Promise<FinishedTranscription> {
  const out = await deps.transcribe.send(new GetTranscriptionJobCommand({ TranscriptionJobName: jobName }));
  const job = out.TranscriptionJob;
  const status = job?.TranscriptionJobStatus;
  if (status !== 'COMPLETED' && status !== 'FAILED') return { status: 'pending', jobName };
  const audioKey = keyOfUri(job?.Media?.MediaFileUri, deps.bucket);
  const tenantId = audioKey ? /^tenants\/([^/]+)\/audio\//.exec(audioKey)?.[1] : undefined;
  if (!audioKey || !tenantId)
    throw new Error(`transcription job ${jobName} is not one of ours (media ${job?.Media?.MediaFileUri})`);
  assertTenantAudioKey(tenantId, audioKey);
  if (status === 'FAILED')
    return { status: 'failed', jobName, tenantId, audioKey, reason: job?.FailureReason ?? 'no reason given' };
  return {
    status: 'completed',
    jobName,
    tenantId,
    audioKey,
    ...(await readTranscript(deps, transcriptKeyFor(tenantId, jobName))),
  };
}

/**
 * The job name and status of an EventBridge "Transcribe Job State Change" event; null for any other
 * event or a job not started here. Typed loosely on purpose: no Lambda types in the adapters.
 */
export function transcribeStateChange(event: unknown): { jobName: string; status: string } | null {
  const e = event as {
    source?: string;
    'detail-type'?: string;
    detail?: { TranscriptionJobName?: string; TranscriptionJobStatus?: string };
  };
  if (e?.source !== 'aws.transcribe' || e['detail-type'] !== 'Transcribe Job State Change') return null;
  const jobName = e.detail?.TranscriptionJobName;
  if (!jobName?.startsWith('gh-')) return null;
  return { jobName, status: e.detail?.TranscriptionJobStatus ?? 'UNKNOWN' };
}
