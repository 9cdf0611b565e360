/**
 * Worker `workflow-timers` (shared/workers.ts), every minute: queues the workflow runs whose wait
 * ended and starts the scheduled workflows that are due (shared/domain/workflows/runner.ts). A run
 * with failures fails, so the error count and the dead-letter alarm show it; the failed timers stay
 * and the next run tries them again.
 */
import type { Context, ScheduledEvent } from 'aws-lambda';
import { sweepWorkflowTimers, type TimerSweep } from '../../shared/domain/workflows/runner.js';
import { log } from '../../shared/log.js';
import { withHeartbeat } from '../../shared/worker-handler.js';

/** Left for the last writes and the log line when the deadline comes. */
const MARGIN_MS = 10_000;

export const handler = withHeartbeat('workflow-timers', async (_event: ScheduledEvent, context: Context): Promise<TimerSweep> => {
  const result = await sweepWorkflowTimers({ deadline: Date.now() + context.getRemainingTimeInMillis() - MARGIN_MS });
  log.info('workflow timers handled', { ...result });
  if (result.failed > 0) throw new Error(`${result.failed} of ${result.due} due workflow timers could not be handled; the next run tries them again`);
  return result;
});
