/**
 * Worker `sla-escalation` (shared/workers.ts), every minute: incidents nobody acknowledged in time
 * have their SLA breach marked and are escalated (shared/domain/incidents/sla-scheduler.ts). A
 * run with failures fails, so the error count and the dead-letter alarm show it; the failed
 * incidents' timers stay and the next run tries them again.
 */
import type { Context, ScheduledEvent } from 'aws-lambda';
import { sweepSlaTimers, type SweepResult } from '../../shared/domain/incidents/sla-scheduler.js';
import { log } from '../../shared/log.js';
import { withHeartbeat } from '../../shared/worker-handler.js';

/** Left for writing the last changes and the log line when the deadline comes. */
const MARGIN_MS = 10_000;

export const handler = withHeartbeat('sla-escalation', async (_event: ScheduledEvent, context: Context): Promise<SweepResult> => {
  const result = await sweepSlaTimers({ requestId: context.awsRequestId, deadline: Date.now() + context.getRemainingTimeInMillis() - MARGIN_MS });
  log.info('SLA timers handled', { ...result });
  if (result.failed > 0) throw new Error(`${result.failed} of ${result.due} due incidents could not be escalated; the next run tries them again`);
  return result;
});
