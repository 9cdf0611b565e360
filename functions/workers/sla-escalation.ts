/**
 * Worker `sla-escalation` (shared/workers.ts), every minute: incidents nobody acknowledged in time
 * have their SLA breach marked and are escalated (shared/domain/incidents/sla-scheduler.ts). A run
 * with failures fails; the failed incidents' timers stay and the next run tries them again.
 */
import { sweepSlaTimers } from '../../shared/domain/incidents/sla-scheduler.js';
import { sweepWorker } from '../../shared/worker-handler.js';

export const handler = sweepWorker('sla-escalation', 'due incidents', (deadline, context) =>
  sweepSlaTimers({ requestId: context.awsRequestId, deadline }),
);
