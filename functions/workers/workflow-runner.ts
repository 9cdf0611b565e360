/**
 * Worker `workflow-runner` (shared/workers.ts): reads the `workflow-runs` queue; bus messages start
 * the workflows they trigger, run jobs go on with runs (shared/domain/workflows/run-batch.ts). A
 * message whose run has a step to try again is reported alone and comes back after a backoff.
 */
import { backoffOn } from '../../shared/adapters/queue-retry.js';
import { runWorkflowMessages } from '../../shared/domain/workflows/run-batch.js';
import { RUNS_QUEUE } from '../../shared/domain/workflows/runner.js';
import { queueBatchWorker } from '../../shared/worker-handler.js';

export const handler = queueBatchWorker(
  'workflow-runner',
  { hide: backoffOn(RUNS_QUEUE), parallel: true },
  runWorkflowMessages,
);
