/**
 * Worker `audit-digests` (shared/workers.ts), every 15 minutes: each tenant's audit hours that are
 * over and settled get their digest, chained to the one before (shared/domain/audit/digest.ts). A
 * tenant that fails is logged and counted; the run then fails, and the next goes on from each chain.
 */
import { digestAllTenants, MAX_HOURS_PER_RUN } from '../../shared/domain/audit/digest.js';
import { log } from '../../shared/log.js';
import { sweepWorker } from '../../shared/worker-handler.js';

const onFailure = (tenantId: string, err: unknown) =>
  log.error("could not digest a tenant's audit hours; the next run tries again", { tenant_id: tenantId, err });

/** The worker, digesting at most `maxHoursPerRun` hours a tenant (tests make a chain fall behind with fewer). */
export const digestsWorker = (maxHoursPerRun = MAX_HOURS_PER_RUN) =>
  sweepWorker('audit-digests', "tenants' audit hours", (deadline) =>
    digestAllTenants(deadline, onFailure, maxHoursPerRun),
  );

export const handler = digestsWorker();
