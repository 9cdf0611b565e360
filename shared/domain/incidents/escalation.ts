/**
 * The SLA clock and the escalation levels of an incident, as pure functions (no storage, no
 * Lambda types); docs/configuration.md describes them for tenant admins.
 *
 * - Confirming an incident starts its clock: `sla_due_at` is the confirmation plus the tenant's
 *   `sla_minutes` for its severity, and the first automatic escalation is due then too. The first
 *   level of the tenant's escalation policy is told at once (the notification with the link).
 * - While nobody acknowledges it (it stays `confirmed`), the SLA scheduler
 *   (sla-scheduler.ts) marks the breach at `sla_due_at` and raises the level whenever
 *   `next_escalation_at` passes. Level k (1-based) notifies `levels[k - 1]` and waits that level's
 *   `after_minutes` before level k + 1; the top level has no next.
 * - A manual escalation moves the level the same way and restarts that wait.
 * - Leaving `confirmed` (acknowledged, in progress, cancelled) stops the clock; the breach time,
 *   once set, stays as the record (and is set then when that came after the due time).
 */
import type { Incident } from '../../db/incidents.js';
import { deleteSlaTimer, putSlaTimer, type SlaTimer } from '../../db/sla-timers.js';
import type { TransactItem } from '../../db/transact.js';
import type { EscalationLevel, TenantConfig } from '../accounts/index.js';
import type { IncidentSeverity } from './lifecycle.js';

/** Who the history names for what the scheduler does. */
export const SYSTEM_ACTOR = 'system';

const plusMinutes = (at: string, minutes: number) => new Date(Date.parse(at) + minutes * 60_000).toISOString();

export function slaDue(config: TenantConfig, severity: IncidentSeverity, from: string): string {
  return plusMinutes(from, config.sla_minutes[severity]);
}

type SlaFields = Pick<Incident, 'sla_due_at' | 'sla_breached_at' | 'next_escalation_at'>;

/** The clock of an incident confirmed at `at`. */
export function startSlaClock(config: TenantConfig, severity: IncidentSeverity, at: string): SlaFields {
  const due = slaDue(config, severity, at);
  return { sla_due_at: due, sla_breached_at: null, next_escalation_at: due };
}

/** When the level after `level` (just reached at `at`) is due, or null at the top. */
export function nextEscalationAt(levels: readonly EscalationLevel[], level: number, at: string): string | null {
  return level >= 1 && level < levels.length ? plusMinutes(at, levels[level - 1]!.after_minutes) : null;
}

/**
 * When the scheduler must next look at the incident: the breach or the next escalation, whichever
 * comes first, while it waits for acknowledgement; null otherwise.
 */
export function wakeOf(i: Partial<SlaFields> & Pick<Incident, 'status'>): string | null {
  if (i.status !== 'confirmed') return null;
  const times = [i.next_escalation_at, i.sla_breached_at ? null : i.sla_due_at].filter((t): t is string => Boolean(t));
  return times.length > 0 ? times.sort()[0]! : null;
}

/**
 * The SLA fields after a change at `next.updated_at`: once the incident leaves `confirmed` nothing
 * more escalates, and an acknowledgement that came after the due time (before the scheduler's next
 * run saw it) still records the breach.
 */
export function settleSlaClock(next: Incident): Incident {
  if (next.status === 'confirmed') return next;
  const lateBy = next.sla_due_at && !next.sla_breached_at && next.sla_due_at < next.updated_at;
  return { ...next, next_escalation_at: null, sla_breached_at: lateBy ? next.sla_due_at : next.sla_breached_at };
}

/** Moves the incident's SLA timer from where `before` had it to where `after` needs it. */
export function slaTimerWrites(before: Incident | null, after: Incident): TransactItem[] {
  const timer = (i: Incident | null): SlaTimer | null => {
    const wake = i ? wakeOf(i) : null;
    return i && wake ? { wake_at: wake, tenant_id: i.tenant_id, incident_id: i.incident_id } : null;
  };
  const from = timer(before);
  const to = timer(after);
  if (from?.wake_at === to?.wake_at) return [];
  return [...(from ? [deleteSlaTimer(from)] : []), ...(to ? [putSlaTimer(to)] : [])];
}

export interface Raised {
  next: Incident;
  level: number;
  notifyRoles: EscalationLevel['notify_roles'];
  /** The policy's level told: `levels[level - 1]` (its roles and integrations). */
  told: EscalationLevel;
}

/**
 * One level up: the history entry, the new level and when the one after it is due. Past the top
 * of the policy it returns null (a manual escalation answers 409 then).
 */
export function raiseLevel(
  current: Incident,
  levels: readonly EscalationLevel[],
  at: string,
  by: string,
  reason?: string,
): Raised | null {
  if (current.escalation_level >= levels.length) return null;
  const level = current.escalation_level + 1;
  const told = levels[level - 1]!;
  const notifyRoles = told.notify_roles;
  const next: Incident = {
    ...current,
    escalation_level: level,
    next_escalation_at: current.status === 'confirmed' ? nextEscalationAt(levels, level, at) : null,
    history: [
      ...current.history,
      { at, kind: 'escalated', by, detail: { level, notify_roles: notifyRoles, ...(reason ? { reason } : {}) } },
    ],
  };
  return { next, level, notifyRoles, told };
}

export interface SlaStep {
  next: Incident;
  /** The SLA was breached in this step (it had not been marked before). */
  breached: boolean;
  /** The level raised to in this step, if any. */
  raised: Raised | null;
}

/**
 * What the scheduler does to an incident at `at`: mark the breach when `sla_due_at` has passed,
 * raise one level when `next_escalation_at` has. Null when nothing is due (acknowledged since,
 * or the timer was early).
 */
export function slaStep(current: Incident, levels: readonly EscalationLevel[], at: string): SlaStep | null {
  if (current.status !== 'confirmed') return null;
  const moment = Date.parse(at);
  const due = (t: string | null | undefined) => Boolean(t) && Date.parse(t!) <= moment;
  const breached = !current.sla_breached_at && due(current.sla_due_at);
  const escalating = due(current.next_escalation_at);
  if (!breached && !escalating) return null;

  let next: Incident = { ...current, history: [...current.history] };
  if (breached) {
    next.sla_breached_at = current.sla_due_at;
    next.history.push({ at, kind: 'sla_breached', by: SYSTEM_ACTOR, detail: { sla_due_at: current.sla_due_at } });
  }
  let raised: Raised | null = null;
  if (escalating) {
    const reason =
      current.escalation_level === 0
        ? `not acknowledged within the SLA (due ${current.sla_due_at})`
        : `not acknowledged ${levels[current.escalation_level - 1]?.after_minutes ?? '?'} minutes after level ${current.escalation_level}`;
    raised = raiseLevel(next, levels, at, SYSTEM_ACTOR, reason);
    // At the top already: nothing further is due.
    next = raised?.next ?? { ...next, next_escalation_at: null };
  }
  return { next, breached, raised };
}
