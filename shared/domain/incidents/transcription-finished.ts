/**
 * A Transcribe job's state changed (worker `transcription-finished`, on a rule of the account's
 * default bus): when it is one of ours that finished after its voice request had answered with a
 * pending draft, the drafts waiting on it are completed (transcription.ts). Anything else is not
 * ours to act on: logged, and null.
 */
import { transcribeStateChange } from '../../adapters/speech/index.js';
import { log } from '../../log.js';
import { completePendingTranscription, type TranscriptionOutcome } from './transcription.js';

export function transcriptionFinished(
  event: { source?: string; 'detail-type'?: string },
  requestId: string,
): Promise<TranscriptionOutcome | null> {
  const change = transcribeStateChange(event);
  if (!change) {
    // The rule lets only our jobs' events through.
    log.warn('not a state change of one of our transcription jobs', {
      source: event.source,
      detail_type: event['detail-type'],
    });
    return Promise.resolve(null);
  }
  return completePendingTranscription(change.jobName, requestId);
}
