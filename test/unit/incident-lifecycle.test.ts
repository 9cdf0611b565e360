import { describe, expect, it } from 'vitest';
import {
  canTransition,
  ForbiddenTransitionError,
  INCIDENT_STATUSES,
  nextStatuses,
  statusAt,
  timeFigures,
  transition,
  type Transition,
} from '../../shared/domain/incidents/lifecycle.js';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 21, 12, minute)).toISOString();

describe('incident lifecycle', () => {
  it('walks the whole happy path', () => {
    const path = [
      'draft',
      'confirmed',
      'acknowledged',
      'in_progress',
      'on_hold',
      'in_progress',
      'resolved',
      'closed',
    ] as const;
    for (let i = 1; i < path.length; i++) expect(canTransition(path[i - 1]!, path[i]!)).toBe(true);
  });

  it('refuses skipping ahead and leaving a final state, saying what is allowed', () => {
    expect(() => transition('draft', 'resolved', at(0), 'u')).toThrow(ForbiddenTransitionError);
    expect(() => transition('draft', 'resolved', at(0), 'u')).toThrow(
      /draft cannot become resolved; from draft it can become confirmed, cancelled/,
    );
    expect(() => transition('closed', 'in_progress', at(0), 'u')).toThrow(/closed is final/);
    expect(nextStatuses('cancelled')).toEqual([]);
  });

  it('anything not yet resolved may be cancelled; a resolved incident may reopen', () => {
    for (const s of ['draft', 'confirmed', 'acknowledged', 'in_progress', 'on_hold'] as const)
      expect(canTransition(s, 'cancelled')).toBe(true);
    expect(canTransition('resolved', 'cancelled')).toBe(false);
    expect(canTransition('resolved', 'in_progress')).toBe(true);
  });

  it('no status leads to itself or to draft', () => {
    for (const s of INCIDENT_STATUSES) {
      expect(canTransition(s, s)).toBe(false);
      expect(canTransition(s, 'draft')).toBe(false);
    }
  });

  it('derives time to acknowledge and to resolve from the first entries, counting from confirmation', () => {
    const history: Transition[] = [
      { from: null, to: 'draft', at: at(0), by: 'u' },
      transition('draft', 'confirmed', at(2), 'u'),
      transition('confirmed', 'acknowledged', at(7), 'token'),
      transition('acknowledged', 'in_progress', at(9), 'u'),
      transition('in_progress', 'resolved', at(32), 'u'),
      transition('resolved', 'in_progress', at(40), 'u'),
      transition('in_progress', 'resolved', at(50), 'u'),
    ];
    expect(timeFigures(at(0), history)).toEqual({ time_to_acknowledge_seconds: 300, time_to_resolve_seconds: 1800 });
    expect(timeFigures(at(0), history.slice(0, 2))).toEqual({
      time_to_acknowledge_seconds: null,
      time_to_resolve_seconds: null,
    });
  });

  it('tells the status at any moment, for snapshots', () => {
    const history: Transition[] = [
      { from: null, to: 'draft', at: at(0), by: 'u' },
      transition('draft', 'confirmed', at(2), 'u'),
      transition('confirmed', 'acknowledged', at(7), 'u'),
    ];
    expect(statusAt(history, at(1))).toBe('draft');
    expect(statusAt(history, at(5))).toBe('confirmed');
    expect(statusAt(history, at(7))).toBe('acknowledged');
    expect(statusAt(history, new Date(Date.UTC(2026, 10, 21, 11, 0)).toISOString())).toBeNull();
  });
});
