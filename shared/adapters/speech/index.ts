/**
 * The recogniser voice reports use: Amazon Transcribe, unless the program was composed with
 * another (the local runtime installs pocketsphinx: shared/local/compose.ts). One instance per
 * process; the clients inside are reused across invocations.
 */
import { TranscribeClient } from '@aws-sdk/client-transcribe';
import { config } from '../../config.js';
import { BUCKET, s3 } from '../s3.js';
import {
  finishTranscriptionJob,
  TranscribeSpeechRecognizer,
  type FinishedTranscription,
  type TranscribeDeps,
} from './transcribe.js';
import type { SpeechRecognizer } from './types.js';

export * from './types.js';
export { startsAsAudio } from './audio-signature.js';
export {
  finishTranscriptionJob,
  jobNameFor,
  transcribeStateChange,
  TranscribeSpeechRecognizer,
  transcriptKeyFor,
} from './transcribe.js';
import { portOf, setPort } from '../../runtime-ports.js';
import { tracedClient } from '../../tracing.js';
export type { FinishedTranscription } from './transcribe.js';

let transcribeDeps: TranscribeDeps | undefined;
function awsDeps(): TranscribeDeps {
  transcribeDeps ??= {
    transcribe: tracedClient(new TranscribeClient({ region: config.region })),
    s3,
    bucket: BUCKET,
    languageCode: config.speech.languageCode,
  };
  return transcribeDeps;
}

let transcribe: SpeechRecognizer | undefined;

/** Where the program is composed: the recogniser to use instead of Transcribe (shared/runtime-ports.ts). */
export function useSpeechRecognizer(recognizer: SpeechRecognizer): void {
  setPort('speechRecognizer', recognizer);
}

export function speechRecognizer(): SpeechRecognizer {
  return portOf<SpeechRecognizer>('speechRecognizer') ?? (transcribe ??= new TranscribeSpeechRecognizer(awsDeps()));
}

/** For the Transcribe state-change handler: the finished job's transcript. */
export function finishTranscription(jobName: string): Promise<FinishedTranscription> {
  return finishTranscriptionJob(awsDeps(), jobName);
}
