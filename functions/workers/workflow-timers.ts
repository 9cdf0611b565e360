/**
 * Worker `workflow-timers` (shared/workers.ts), every minute: queues the workflow runs whose wait
 * ended and starts the scheduled workflows that are due (shared/domain/workflows/runner.ts). A run
 * with failures fails; the failed timers stay and the next run tries them again.
 */
import { sweepWorkflowTimers } from '../../shared/domain/workflows/runner.js';
import { sweepWorker } from '../../shared/worker-handler.js';

export const handler = sweepWorker('workflow-timers', 'due workflow timers', (deadline) =>
  sweepWorkflowTimers({ deadline }),
);
