/**
 * Speech to text for voice reports, behind one interface: Amazon Transcribe in AWS, pocketsphinx
 * offline. Knows nothing of Lambda or HTTP; the voice route maps the errors to its answers.
 */

import { AUDIO_FORMATS, type AudioFormat } from '../../vocabulary/audio.js';
import { isNamedError } from '../../runtime-ports.js';

export { AUDIO_CONTENT_TYPES, AUDIO_FORMATS } from '../../vocabulary/audio.js';
export type { AudioFormat } from '../../vocabulary/audio.js';

/** The format a key's extension names (`.../x.MP3` is mp3), or undefined for any other ending. */
export function audioFormatOfKey(key: string): AudioFormat | undefined {
  const extension = /\.([A-Za-z0-9]+)$/.exec(key)?.[1]?.toLowerCase();
  return AUDIO_FORMATS.find((f) => f === extension);
}

export interface TranscribeInput {
  /** Where the recording is stored: always under `tenants/<tenantId>/audio/`. */
  audioKey: string;
  /** The bytes when the caller has them already (a short clip from the request body). */
  audio?: Buffer;
  format: AudioFormat;
  tenantId: string;
  /** How long the caller can wait, in ms (what is left of API Gateway's timeout). */
  budgetMs: number;
}

/**
 * Words the recogniser was unsure of (lower case, each once): Transcribe's items under
 * UNSURE_BELOW confidence; offline, the words a second, open-vocabulary pass did not also hear.
 * A draft asks these back rather than act on them alone.
 */
export type UnsureWords = string[];

/** Confidence under which a word counts as unsure (in a captured Transcribe job, test/fixtures/transcribe, the one misheard word had 0.69). */
export const UNSURE_BELOW = 0.7;

export type TranscribeResult =
  | { status: 'completed'; transcript: string; unsureWords: UnsureWords }
  /** Still running when the budget ran out; finished later from the job's state-change event. */
  | { status: 'pending'; jobName: string };

export interface SpeechRecognizer {
  transcribe(input: TranscribeInput): Promise<TranscribeResult>;
}

/** No recogniser on this machine (sox or pocketsphinx missing): the route answers 503. */
export class SpeechUnavailableError extends Error {
  override readonly name = 'SpeechUnavailableError';
  /** By name: the local stand-in throws its own copy of this class (shared/runtime-ports.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isNamedError(value, 'SpeechUnavailableError');
  }
}

/** The recogniser did not finish within its budget (a busy machine): try again later, a 503. */
export class SpeechBusyError extends Error {
  override readonly name = 'SpeechBusyError';
  /** By name: the local stand-in throws its own copy of this class (shared/runtime-ports.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isNamedError(value, 'SpeechBusyError');
  }
}

/** The recogniser ran and failed on this recording (unreadable audio, a failed job). */
export class TranscriptionFailedError extends Error {
  override readonly name = 'TranscriptionFailedError';
  /** By name: the local stand-in throws its own copy of this class (shared/runtime-ports.ts). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isNamedError(value, 'TranscriptionFailedError');
  }
}

/** Where a tenant's recordings live; the only prefix either recogniser reads from. */
export const tenantAudioPrefix = (tenantId: string) => `tenants/${tenantId}/audio/`;

/**
 * Refuses a key outside the tenant's audio prefix, so a key from a request can never make us
 * read (or hand Transcribe) another tenant's recording. `..` is refused too: S3 keys are
 * literal, but the local recogniser and log readers should not see path tricks either.
 */
export function assertTenantAudioKey(tenantId: string, audioKey: string): void {
  if (!/^[A-Za-z0-9_-]+$/.test(tenantId)) throw new Error(`invalid tenant id: ${tenantId}`);
  const prefix = tenantAudioPrefix(tenantId);
  if (!audioKey.startsWith(prefix) || audioKey.length === prefix.length || audioKey.split('/').includes('..')) {
    throw new Error(`audio key ${audioKey} is not under ${prefix}`);
  }
}
