/**
 * The recogniser this deployment uses (config.speech.mode): Transcribe in AWS, pocketsphinx under
 * the local stack. One instance per process; the clients inside are reused across invocations.
 */
import { TranscribeClient } from '@aws-sdk/client-transcribe';
import { config, type Config } from '../../config.js';
import { BUCKET, s3 } from '../s3.js';
import { LocalSpeechRecognizer } from './local.js';
import { finishTranscriptionJob, TranscribeSpeechRecognizer, type FinishedTranscription, type TranscribeDeps } from './transcribe.js';
import type { SpeechRecognizer } from './types.js';

export * from './types.js';
export { LocalSpeechRecognizer } from './local.js';
export { finishTranscriptionJob, jobNameFor, transcribeStateChange, TranscribeSpeechRecognizer, transcriptKeyFor } from './transcribe.js';
export type { FinishedTranscription } from './transcribe.js';

let transcribeDeps: TranscribeDeps | undefined;
function awsDeps(cfg: Config): TranscribeDeps {
  transcribeDeps ??= {
    transcribe: new TranscribeClient({ region: cfg.region }),
    s3,
    bucket: BUCKET,
    languageCode: cfg.speech.languageCode,
  };
  return transcribeDeps;
}

export function speechRecognizer(cfg: Config = config): SpeechRecognizer {
  return cfg.speech.mode === 'aws' ? new TranscribeSpeechRecognizer(awsDeps(cfg)) : new LocalSpeechRecognizer();
}

/** For the Transcribe state-change handler: the finished job's transcript (AWS mode only). */
export function finishTranscription(jobName: string, cfg: Config = config): Promise<FinishedTranscription> {
  return finishTranscriptionJob(awsDeps(cfg), jobName);
}
