/**
 * Worker `transcription-finished` (shared/workers.ts): a Transcribe job of ours finished after
 * its voice request had answered with a pending draft; the drafts waiting on it are completed
 * (shared/domain/incidents/transcription.ts). A failure is thrown, so Lambda retries the event
 * and then keeps it in the worker's dead-letter queue.
 */
import type { Context, EventBridgeEvent } from 'aws-lambda';
import { transcribeStateChange } from '../../shared/adapters/speech/index.js';
import { completePendingTranscription, type TranscriptionOutcome } from '../../shared/domain/incidents/transcription.js';
import { log } from '../../shared/log.js';
import { withHeartbeat } from '../../shared/worker-handler.js';

export const handler = withHeartbeat('transcription-finished', async (event: EventBridgeEvent<string, unknown>, context: Context): Promise<TranscriptionOutcome | null> => {
  const change = transcribeStateChange(event);
  if (!change) {
    // The rule lets only our jobs' events through; anything else is not ours to act on.
    log.warn('not a state change of one of our transcription jobs', { source: event.source, detail_type: event['detail-type'] });
    return null;
  }
  return completePendingTranscription(change.jobName, context.awsRequestId);
});
