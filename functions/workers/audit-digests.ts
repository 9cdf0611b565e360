/**
 * Worker `audit-digests` (shared/workers.ts), every 15 minutes: each tenant's audit hours that are
 * over and settled get their digest, chained to the one before (shared/domain/audit/digest.ts).
 * A tenant that fails is logged and counted; the run then fails, so the error count and the
 * dead-letter alarm show it, and the next run goes on from where each chain stands.
 */
import type { Context, ScheduledEvent } from 'aws-lambda';
import { digestAllTenants, type DigestRun } from '../../shared/domain/audit/digest.js';
import { log } from '../../shared/log.js';
import { withHeartbeat } from '../../shared/worker-handler.js';

/** Left for the log line when the deadline comes. */
const MARGIN_MS = 10_000;

export const handler = withHeartbeat('audit-digests', async (_event: ScheduledEvent, context: Context): Promise<DigestRun> => {
  const run = await digestAllTenants(Date.now() + context.getRemainingTimeInMillis() - MARGIN_MS, (tenantId, err) =>
    log.error("could not digest a tenant's audit hours; the next run tries again", { tenant_id: tenantId, err }),
  );
  log.info('audit hours digested', { ...run });
  if (run.failed > 0) throw new Error(`${run.failed} tenants' audit hours could not be digested; the next run tries again`);
  return run;
});
