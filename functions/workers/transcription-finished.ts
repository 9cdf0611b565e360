/**
 * Worker `transcription-finished` (shared/workers.ts): a Transcribe job of ours finished after its
 * voice request had answered with a pending draft; the drafts waiting on it are completed
 * (shared/domain/incidents/transcription-finished.ts). A failure is thrown, so Lambda retries the
 * event and then keeps it in the worker's dead-letter queue. The job names its tenant only once read:
 * each call runs as the tenant its keys name (shared/tenant-scope.ts `asEachTenant`).
 */
import type { Context, EventBridgeEvent } from 'aws-lambda';
import { transcriptionFinished } from '../../shared/domain/incidents/transcription-finished.js';
import { asEachTenant } from '../../shared/tenant-scope.js';
import { withHeartbeat } from '../../shared/worker-handler.js';

export const handler = withHeartbeat(
  'transcription-finished',
  (event: EventBridgeEvent<string, unknown>, context: Context) =>
    asEachTenant(() => transcriptionFinished(event, context.awsRequestId)),
);
