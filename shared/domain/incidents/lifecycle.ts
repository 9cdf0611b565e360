/**
 * The incident lifecycle: a state machine around the spec's `draft` and `confirmed`, in the
 * manner of the peers (Genetec: new / in progress / on hold / resolved / closed; PagerDuty:
 * acknowledged), with the resolution kept apart from the status, a timestamp for every
 * transition, and the TTx figures derived from them. Pure: no storage, no Lambda types.
 *
 *   draft -> confirmed -> acknowledged -> in_progress <-> on_hold -> resolved -> closed
 *   (confirmed may go straight to in_progress; resolved may reopen to in_progress;
 *    anything not yet resolved may be cancelled)
 */

import type { HistoryEntry } from '../../db/incidents.js';
import type { IncidentStatus } from '../../vocabulary/incidents.js';

export { INCIDENT_SEVERITIES, INCIDENT_STATUSES, RESOLUTIONS, severityRank } from '../../vocabulary/incidents.js';
export type { IncidentSeverity, IncidentStatus, Resolution } from '../../vocabulary/incidents.js';

const TRANSITIONS: Readonly<Record<IncidentStatus, readonly IncidentStatus[]>> = {
  draft: ['confirmed', 'cancelled'],
  confirmed: ['acknowledged', 'in_progress', 'cancelled'],
  acknowledged: ['in_progress', 'resolved', 'cancelled'],
  in_progress: ['on_hold', 'resolved', 'cancelled'],
  on_hold: ['in_progress', 'resolved', 'cancelled'],
  resolved: ['closed', 'in_progress'],
  closed: [],
  cancelled: [],
};

/** The statuses reachable from `from` in one step. */
export function nextStatuses(from: IncidentStatus): readonly IncidentStatus[] {
  return TRANSITIONS[from];
}

export function canTransition(from: IncidentStatus, to: IncidentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export interface Transition {
  from: IncidentStatus | null;
  to: IncidentStatus;
  at: string;
  /** Who moved it: a user id, `system` (SLA escalation), or `token` (an acknowledgement link). */
  by: string;
  note?: string;
}

export class ForbiddenTransitionError extends Error {
  constructor(
    readonly from: IncidentStatus,
    readonly to: IncidentStatus,
  ) {
    const allowed = TRANSITIONS[from];
    super(
      `An incident that is ${from} cannot become ${to}` +
        (allowed.length > 0 ? `; from ${from} it can become ${allowed.join(', ')}` : `; ${from} is final`),
    );
  }
}

/** The transition from `from` to `to`, or ForbiddenTransitionError. */
export function transition(
  from: IncidentStatus,
  to: IncidentStatus,
  at: string,
  by: string,
  note?: string,
): Transition {
  if (!canTransition(from, to)) throw new ForbiddenTransitionError(from, to);
  return { from, to, at, by, ...(note ? { note } : {}) };
}

/** The status changes of an incident's history (its timeline), in time order. */
export function transitionsOf(history: readonly HistoryEntry[]): Transition[] {
  return history
    .filter((h) => h.kind === 'status')
    .map((h) => ({
      from: (h.detail.from as IncidentStatus | null) ?? null,
      to: h.detail.to as IncidentStatus,
      at: h.at,
      by: h.by,
      ...(h.detail.note ? { note: String(h.detail.note) } : {}),
    }));
}

/** When each status was first entered, from a transition history in time order. */
export function firstEntered(history: readonly Transition[]): Partial<Record<IncidentStatus, string>> {
  const out: Partial<Record<IncidentStatus, string>> = {};
  for (const t of history) out[t.to] ??= t.at;
  return out;
}

export interface TimeFigures {
  /** Seconds from confirmation (or creation) to the first acknowledgement; null until then. */
  time_to_acknowledge_seconds: number | null;
  /** Seconds from confirmation (or creation) to the first resolution; null until then. */
  time_to_resolve_seconds: number | null;
}

export function timeFigures(createdAt: string, history: readonly Transition[]): TimeFigures {
  const entered = firstEntered(history);
  const start = Date.parse(entered.confirmed ?? createdAt);
  const since = (at: string | undefined) =>
    at === undefined ? null : Math.max(0, Math.round((Date.parse(at) - start) / 1000));
  return {
    time_to_acknowledge_seconds: since(entered.acknowledged),
    time_to_resolve_seconds: since(entered.resolved),
  };
}

/** The status an incident had at `at`, from its history; null if it did not exist yet. */
export function statusAt(history: readonly Transition[], at: string): IncidentStatus | null {
  const moment = Date.parse(at);
  let status: IncidentStatus | null = null;
  for (const t of history) {
    if (Date.parse(t.at) > moment) break;
    status = t.to;
  }
  return status;
}
