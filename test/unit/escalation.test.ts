/** The SLA clock and escalation levels (shared/domain/incidents/escalation.ts), without storage. */
import { describe, expect, it } from 'vitest';
import type { Incident } from '../../shared/db/incidents.js';
import * as keys from '../../shared/db/item-keys.js';
import {
  raiseLevel,
  settleSlaClock,
  slaStep,
  slaTimerWrites,
  startSlaClock,
  wakeOf,
} from '../../shared/domain/incidents/escalation.js';
import { defaultTenantConfig } from '../../shared/domain/accounts/tenant-config.js';
import { systemTenant } from '../../shared/vocabulary/tenant.js';

const T0 = '2026-11-21T10:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();
const config = defaultTenantConfig('00000000-0000-7000-8000-000000000001', T0);
// critical: 15 minutes; levels wait 15, 30 (the top's 60 is never waited for).
const levels = config.escalation_policy.levels;

function confirmed(severity: Incident['severity'] = 'critical'): Incident {
  return {
    incident_id: '00000000-0000-7000-8000-0000000000aa',
    tenant_id: systemTenant(config.tenant_id),
    title: 'Gate forced',
    description: null,
    type: null,
    severity,
    status: 'confirmed',
    resolution: null,
    resolution_notes: null,
    source: 'manual',
    environment_id: null,
    location: null,
    location_text: null,
    occurred_at: null,
    assignee_id: null,
    escalation_level: 0,
    ...startSlaClock(config, severity, T0),
    summary: null,
    event_ids: [],
    zone_ids: [],
    history: [],
    created_at: T0,
    updated_at: T0,
  };
}

describe('the SLA clock', () => {
  it('starts on confirmation: due by severity, the first escalation due with it', () => {
    expect(startSlaClock(config, 'critical', T0)).toEqual({
      sla_due_at: at(15),
      sla_breached_at: null,
      next_escalation_at: at(15),
    });
    expect(startSlaClock(config, 'low', T0).sla_due_at).toBe(at(1440));
  });

  it('wakes the scheduler at the breach or the next escalation, whichever is first, only while unacknowledged', () => {
    const i = confirmed();
    expect(wakeOf(i)).toBe(at(15));
    // Escalated by hand at minute 5: the next level is due at 20, but the breach at 15 still comes first.
    expect(wakeOf({ ...i, next_escalation_at: at(20) })).toBe(at(15));
    expect(wakeOf({ ...i, sla_breached_at: at(15), next_escalation_at: at(30) })).toBe(at(30));
    expect(wakeOf({ ...i, status: 'acknowledged' })).toBeNull();
    expect(wakeOf({ ...i, status: 'draft', sla_due_at: null, next_escalation_at: null })).toBeNull();
  });

  it('stops when the incident leaves confirmed, keeping the breach as the record', () => {
    const acknowledged = settleSlaClock({
      ...confirmed(),
      status: 'acknowledged',
      sla_breached_at: at(15),
      updated_at: at(40),
    });
    expect(acknowledged).toMatchObject({ next_escalation_at: null, sla_breached_at: at(15), sla_due_at: at(15) });
    // In time: no breach.
    expect(settleSlaClock({ ...confirmed(), status: 'acknowledged', updated_at: at(14) })).toMatchObject({
      next_escalation_at: null,
      sla_breached_at: null,
    });
    // Late, before the scheduler saw it: the breach is recorded all the same.
    expect(settleSlaClock({ ...confirmed(), status: 'acknowledged', updated_at: at(15.2) }).sla_breached_at).toBe(
      at(15),
    );
    // Still waiting: nothing changes.
    const waiting = confirmed();
    expect(settleSlaClock({ ...waiting, updated_at: at(20) })).toEqual({ ...waiting, updated_at: at(20) });
  });
});

describe('the scheduler steps', () => {
  it('does nothing before the due time, or once acknowledged', () => {
    expect(slaStep(confirmed(), levels, at(14))).toBeNull();
    expect(slaStep({ ...confirmed(), status: 'acknowledged' }, levels, at(60))).toBeNull();
  });

  it('at the due time: marks the breach and raises the level to 1, which waits its 15 minutes', () => {
    const step = slaStep(confirmed(), levels, at(15.5))!;
    expect(step.breached).toBe(true);
    expect(step.raised).toMatchObject({ level: 1, notifyRoles: ['OPERATOR'] });
    expect(step.next).toMatchObject({ escalation_level: 1, sla_breached_at: at(15), next_escalation_at: at(30.5) });
    expect(step.next.history.map((h) => [h.kind, h.by])).toEqual([
      ['sla_breached', 'system'],
      ['escalated', 'system'],
    ]);
    expect(step.next.history[1]!.detail).toMatchObject({
      level: 1,
      notify_roles: ['OPERATOR'],
      reason: expect.stringMatching(/SLA/),
    });
  });

  it('walks the levels while nobody acknowledges, then stops at the top', () => {
    let incident = confirmed();
    const seen: [number, string | null][] = [];
    for (const minute of [15, 30, 60, 500]) {
      const step = slaStep(incident, levels, at(minute));
      if (!step) continue;
      incident = step.next;
      seen.push([incident.escalation_level, incident.next_escalation_at]);
    }
    // Level 1 at 15 waits 15; level 2 at 30 waits 30; level 3 (the top) at 60 has no next.
    expect(seen).toEqual([
      [1, at(30)],
      [2, at(60)],
      [3, null],
    ]);
    expect(wakeOf(incident)).toBeNull();
    expect(incident.history.filter((h) => h.kind === 'sla_breached')).toHaveLength(1);
  });

  it('a breach at the top level (escalated by hand before) is marked without a further level', () => {
    let incident = confirmed();
    for (let i = 0; i < 3; i++) incident = raiseLevel(incident, levels, at(1), 'user-1')!.next;
    expect(incident.next_escalation_at).toBeNull();
    expect(raiseLevel(incident, levels, at(2), 'user-1')).toBeNull();
    const step = slaStep(incident, levels, at(15))!;
    expect(step).toMatchObject({ breached: true, raised: null });
    expect(step.next.escalation_level).toBe(3);
    expect(wakeOf(step.next)).toBeNull();
  });

  it('when the policy has shrunk below the level reached, the due step only ends the wait', () => {
    let incident = confirmed();
    incident = slaStep(incident, levels, at(15))!.next;
    incident = slaStep(incident, levels, at(30))!.next;
    expect(incident.escalation_level).toBe(2);
    const step = slaStep(incident, levels.slice(0, 2), at(60))!;
    expect(step).toMatchObject({ breached: false, raised: null });
    expect(step.next).toMatchObject({ escalation_level: 2, next_escalation_at: null });
    expect(wakeOf(step.next)).toBeNull();
  });

  it('a manual escalation restarts the wait of the level it reaches, without an escalation time once acknowledged', () => {
    const raised = raiseLevel(confirmed(), levels, at(5), 'user-1', 'called it in')!;
    expect(raised.next).toMatchObject({ escalation_level: 1, next_escalation_at: at(20) });
    expect(raised.next.history.at(-1)).toMatchObject({
      kind: 'escalated',
      by: 'user-1',
      detail: { level: 1, reason: 'called it in' },
    });
    const onAcknowledged = raiseLevel({ ...confirmed(), status: 'in_progress' }, levels, at(5), 'user-1')!;
    expect(onAcknowledged.next.next_escalation_at).toBeNull();
  });
});

describe('the timer item moves with the incident', () => {
  const timerKey = (i: Incident, wake: string) => keys.slaTimer(wake, i.tenant_id, i.incident_id);

  it('is put on confirmation, moved when the wake time changes, deleted when acknowledged, left alone otherwise', () => {
    const i = confirmed();
    expect(slaTimerWrites(null, i)).toEqual([
      { Put: expect.objectContaining({ Item: expect.objectContaining({ ...timerKey(i, at(15)), wake_at: at(15) }) }) },
    ]);
    const step = slaStep(i, levels, at(15))!;
    expect(slaTimerWrites(i, step.next)).toEqual([
      { Delete: expect.objectContaining({ Key: timerKey(i, at(15)) }) },
      { Put: expect.objectContaining({ Item: expect.objectContaining(timerKey(i, at(30))) }) },
    ]);
    expect(slaTimerWrites(step.next, settleSlaClock({ ...step.next, status: 'acknowledged' }))).toEqual([
      { Delete: expect.objectContaining({ Key: timerKey(i, at(30)) }) },
    ]);
    expect(slaTimerWrites(i, { ...i, title: 'renamed' })).toEqual([]);
    expect(slaTimerWrites(null, { ...i, status: 'draft', sla_due_at: null, next_escalation_at: null })).toEqual([]);
  });
});
