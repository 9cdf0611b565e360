import { describe, expect, it } from 'vitest';
import {
  FACTOR_WEIGHTS,
  scoreEvent,
  withinBusinessHours,
  type ScoreInput,
} from '../../shared/domain/events/scoring.js';

const hours = { timezone: 'Europe/Oslo', start: '08:00', end: '18:00', days: [1, 2, 3, 4, 5] };
// Wednesday 2026-11-18 at 10:00 in Oslo (UTC+1) is 09:00 UTC.
const workday = '2026-11-18T09:00:00.000Z';
const night = '2026-11-18T23:30:00.000Z';

const base: ScoreInput = {
  type: 'perimeter.breach',
  occurredAt: workday,
  zoneLevels: [],
  recentInZone: 0,
  sensorHealth: null,
  reportedSeverity: null,
  businessHours: hours,
};

describe('threat score', () => {
  it('weights sum to one', () => {
    expect(Object.values(FACTOR_WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
  });

  it('is the weighted sum of its factors, and deterministic', () => {
    const input = {
      ...base,
      zoneLevels: [3, 5],
      recentInZone: 10,
      sensorHealth: 'degraded' as const,
      reportedSeverity: 'high',
    };
    const a = scoreEvent(input);
    expect(a).toEqual(scoreEvent(input));
    expect(a.factors.zone.value).toBe(1);
    expect(a.factors.density.value).toBe(0.5);
    expect(a.score).toBeCloseTo(0.35 * 0.85 + 0.25 * 1 + 0.1 * 0 + 0.1 * 0.5 + 0.1 * 0.5 + 0.1 * 0.75, 3);
  });

  it('weighs events outside business hours, read in the tenant time zone', () => {
    expect(withinBusinessHours(workday, hours)).toBe(true);
    expect(withinBusinessHours(night, hours)).toBe(false);
    // Saturday.
    expect(withinBusinessHours('2026-11-21T10:00:00.000Z', hours)).toBe(false);
    expect(scoreEvent({ ...base, occurredAt: night }).factors.after_hours.value).toBe(1);
  });

  it('handles hours that span midnight', () => {
    const nightShift = { ...hours, start: '22:00', end: '06:00', days: [1, 2, 3, 4, 5, 6, 7] };
    expect(withinBusinessHours(night, nightShift)).toBe(true);
    expect(withinBusinessHours(workday, nightShift)).toBe(false);
  });

  it('a heartbeat in no zone in working hours scores zero', () => {
    expect(scoreEvent({ ...base, type: 'sensor.heartbeat' }).score).toBe(0);
  });

  it('adds the matched threat definitions as one factor of weight 1, and stays capped at 1', () => {
    const plain = scoreEvent(base);
    const matched = scoreEvent({ ...base, signatures: [{ weight: 0.2 }, { weight: 0.15 }] });
    expect(plain.factors.signatures).toBeUndefined();
    expect(matched.factors.signatures).toEqual({ value: 0.35, weight: 1 });
    expect(matched.score).toBeCloseTo(plain.score + 0.35, 10);
    const many = scoreEvent({ ...base, zoneLevels: [5], signatures: [{ weight: 1 }, { weight: 1 }] });
    expect(many.factors.signatures).toEqual({ value: 1, weight: 1 });
    expect(many.score).toBe(1);
  });

  it('stays within 0..1', () => {
    const worst = scoreEvent({
      ...base,
      type: 'intrusion.detected',
      occurredAt: night,
      zoneLevels: [5],
      recentInZone: 100,
      sensorHealth: 'offline',
      reportedSeverity: 'critical',
    });
    expect(worst.score).toBeLessThanOrEqual(1);
    expect(worst.score).toBeGreaterThan(0.9);
  });
});
