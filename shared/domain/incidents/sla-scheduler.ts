/**
 * The SLA scheduler's work (worker `sla-escalation`, every minute): each incident whose timer is
 * due has its breach marked and its level raised (escalation.ts), in one transaction with its
 * audit entries, feed entries and bus messages (`incident.sla_breached`, `incident.escalated`, and
 * the next level's `incident.notification` with a new link). It goes through the same versioned
 * `change` as every other incident change, so an acknowledgement at the same moment either lands
 * first (and nothing escalates) or makes this one read again: neither is lost.
 */
import { getIncident, type StoredIncident } from '../../db/incidents.js';
import { dueSlaTimers, removeSlaTimer, type SlaTimer } from '../../db/sla-timers.js';
import { now } from '../../ids.js';
import { log } from '../../log.js';
import { systemActor } from '../actor.js';
import type { TenantConfig } from '../accounts/index.js';
import { slaStep, wakeOf, type SlaStep } from './escalation.js';
import { change, companions, configOf } from './incidents.js';
import { notificationWrites } from './notifications.js';
import { systemTenant } from '../../vocabulary/tenant.js';
import { agentEnabled } from '../agents/index.js';

export interface SweepOptions {
  /** For the audit entries: the invocation's request id. */
  requestId: string;
  /** Stop taking new timers at this epoch millisecond (what is left of the Lambda's time). */
  deadline: number;
  /** Timers read per query, and handled at once at most. */
  pageSize?: number;
}

export interface SweepResult {
  /** Timers that were due. */
  due: number;
  breached: number;
  escalated: number;
  /** Timers of incidents acknowledged, closed or moved since: removed. */
  stale: number;
  /** Timers of tenants that switched the SLA watchdog agent off: left for a run after it is on again. */
  skipped: number;
  /** Incidents that could not be written; their timers stay, so the next run tries again. */
  failed: number;
  /** Due timers left for the next run because the deadline came. */
  deferred: boolean;
}

/** Thrown inside a change when, on reading again, nothing is due any more. */
class NothingDue extends Error {}

const CONCURRENCY = 8;

export async function sweepSlaTimers(options: SweepOptions): Promise<SweepResult> {
  const at = now();
  const actor = systemActor(options.requestId);
  const pageSize = options.pageSize ?? 100;
  const configs = new Map<string, Promise<TenantConfig>>();
  const configFor = (tenantId: string) => {
    let config = configs.get(tenantId);
    if (!config) configs.set(tenantId, (config = configOf(tenantId)));
    return config;
  };
  const result: SweepResult = { due: 0, breached: 0, escalated: 0, stale: 0, skipped: 0, failed: 0, deferred: false };

  const settle = async (timer: SlaTimer): Promise<void> => {
    // A tenant that switched the SLA watchdog off: its timers wait for it to be switched on.
    if (!(await agentEnabled(timer.tenant_id, 'sla-watchdog'))) {
      result.skipped++;
      return;
    }
    const config = await configFor(timer.tenant_id);
    const levels = config.escalation_policy.levels;
    let step: SlaStep | null = null;
    try {
      await change(
        actor,
        // System work: the timer was written in its incident's tenant.
        systemTenant(timer.tenant_id),
        timer.incident_id,
        (current, stamp) => {
          // A timer the incident has moved on from (acknowledged, escalated since) is stale.
          step = wakeOf(current) === timer.wake_at ? slaStep(current, levels, stamp) : null;
          if (!step) throw new NothingDue();
          const { next, breached, raised } = step;
          const escalation = raised
            ? {
                action: 'incident.escalated',
                changes: {
                  escalation_level: { from: current.escalation_level, to: raised.level },
                  notify_roles: raised.notifyRoles,
                  automatic: true,
                },
              }
            : null;
          // Neither: the next level was due but the tenant's policy has fewer levels now; the
          // incident stays where it is and nothing further is due.
          const first = breached
            ? {
                action: 'incident.sla_breached',
                changes: { sla_due_at: current.sla_due_at, sla_breached_at: next.sla_breached_at },
              }
            : (escalation ?? {
                action: 'incident.updated',
                changes: { next_escalation_at: { from: current.next_escalation_at, to: null } },
              });
          return {
            next,
            fields: ['escalation_level'],
            action: first.action,
            changes: first.changes,
            extra: [
              ...(breached && escalation
                ? companions(actor, { ...next, updated_at: stamp }, escalation.action, escalation.changes)
                : []),
              ...(raised ? notificationWrites(next, config, raised.told, 'not_acknowledged') : []),
            ],
          };
        },
        async (): Promise<StoredIncident> => {
          const current = await getIncident(timer.tenant_id, timer.incident_id);
          if (!current) throw new NothingDue();
          return current;
        },
      );
    } catch (error) {
      if (!(error instanceof NothingDue)) throw error;
      // Gone, or changed since the timer was set (its own change moved the timer, unless that
      // raced this run's read): remove the timer if it is still there and still stale.
      const current = await getIncident(timer.tenant_id, timer.incident_id);
      if (!current || wakeOf(current) !== timer.wake_at) await removeSlaTimer(timer);
      result.stale++;
      return;
    }
    const done = step as SlaStep | null;
    if (done?.breached) result.breached++;
    if (done?.raised) result.escalated++;
  };

  let after: SlaTimer | undefined;
  for (;;) {
    if (Date.now() >= options.deadline) {
      result.deferred = true;
      break;
    }
    const timers = await dueSlaTimers(at, pageSize, after);
    result.due += timers.length;
    for (let i = 0; i < timers.length; i += CONCURRENCY) {
      const outcomes = await Promise.allSettled(timers.slice(i, i + CONCURRENCY).map(settle));
      outcomes.forEach((outcome, j) => {
        if (outcome.status === 'fulfilled') return;
        const timer = timers[i + j]!;
        result.failed++;
        log.error('could not escalate an incident past its SLA; the next run tries again', {
          tenant_id: timer.tenant_id,
          incident_id: timer.incident_id,
          wake_at: timer.wake_at,
          err: outcome.reason,
        });
      });
    }
    if (timers.length < pageSize) break;
    after = timers[timers.length - 1];
  }
  return result;
}
