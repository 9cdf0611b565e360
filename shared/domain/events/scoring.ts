/**
 * The threat score of an event: a documented, deterministic number in 0..1, the weighted sum of
 * six factors, each in 0..1, stored beside the score so anyone can see why.
 *
 * | factor            | weight | value                                                              |
 * |-------------------|--------|--------------------------------------------------------------------|
 * | type              | 0.35   | the event type's base weight (TYPE_WEIGHTS)                          |
 * | zone              | 0.25   | highest security level of the matched zones: (level - 1) / 4; 0 if none |
 * | after_hours       | 0.10   | 1 outside the tenant's business hours (in its time zone), else 0      |
 * | density           | 0.10   | events in the same zone in the last hour / 20, at most 1              |
 * | sensor_health     | 0.10   | the reporting sensor's health before this event: offline 1, degraded 0.5, online 0 |
 * | reported_severity | 0.10   | the reporter's severity: low 0.25, medium 0.5, high 0.75, critical 1; 0 if none |
 *
 * The active threat definitions the event matched (shared/domain/threat-libraries/matching.ts) add one more
 * factor, `signatures`, at weight 1: their weights summed, at most 1. The score is capped at 1.
 *
 * Pure: the same inputs always give the same score.
 */
import type { EventType } from '../../schemas/events.js';
import { signatureFactor } from '../threat-libraries/index.js';
import { localMinuteOf, minutesOfDay, withinTimes } from '../local-time.js';

export const TYPE_WEIGHTS: Record<EventType, number> = {
  'sensor.reading': 0.05,
  'sensor.heartbeat': 0,
  'sensor.alert': 0.5,
  'sensor.tamper': 0.8,
  'motion.detected': 0.3,
  'intrusion.detected': 0.9,
  'perimeter.breach': 0.85,
  'door.forced': 0.8,
  'door.held_open': 0.35,
  'access.denied': 0.4,
  'access.granted': 0.05,
  'tailgating.detected': 0.6,
  'glass.break': 0.8,
  'fibre.disturbance': 0.6,
  'drone.detected': 0.7,
  'vehicle.detected': 0.25,
  'ais.position': 0.02,
  'ais.static': 0,
  'ais.gap': 0.5,
  'vessel.loitering': 0.55,
  // A watched entity was touched (docs/watchlist.md): worth a look, not an incident by itself.
  'watchlist.alert': 0.5,
  // A connector's hazard (an earthquake, a storm warning, a travel advisory) near or over a site (docs/connectors.md): a reason to check, not an intrusion.
  'hazard.alert': 0.4,
  // A possible BGP hijack or leak of a watched prefix or AS (docs/connectors.md): worth a look, often benign (a new upstream, a scrubber).
  'bgp.alert': 0.5,
  manual_report: 0.5,
};

export const FACTOR_WEIGHTS = {
  type: 0.35,
  zone: 0.25,
  after_hours: 0.1,
  density: 0.1,
  sensor_health: 0.1,
  reported_severity: 0.1,
} as const;

/** Events in one zone within an hour that count as "dense". */
export const DENSITY_SATURATION = 20;

const SEVERITY_VALUES: Record<string, number> = { low: 0.25, medium: 0.5, high: 0.75, critical: 1 };
const HEALTH_VALUES: Record<string, number> = { offline: 1, degraded: 0.5, online: 0 };

export interface BusinessHours {
  timezone: string;
  start: string;
  end: string;
  /** ISO weekdays, 1 = Monday. */
  days: number[];
}

export interface ScoreInput {
  type: EventType;
  occurredAt: string;
  /** Security levels (1..5) of the zones the event matched. */
  zoneLevels: number[];
  /** Events already recorded in those zones in the hour before. */
  recentInZone: number;
  sensorHealth: 'online' | 'degraded' | 'offline' | null;
  reportedSeverity: string | null;
  businessHours: BusinessHours;
  /** The threat definitions it matched (each adds its weight). */
  signatures?: readonly { weight: number }[];
}

export type ThreatFactors = Record<keyof typeof FACTOR_WEIGHTS, { value: number; weight: number }> & {
  signatures?: { value: number; weight: number };
};

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Whether `at` falls in the business hours, read in their time zone; an end before the start spans midnight. */
export function withinBusinessHours(at: string, hours: BusinessHours): boolean {
  const { weekday, minutes } = localMinuteOf(Date.parse(at), hours.timezone);
  return hours.days.includes(weekday) && withinTimes(minutes, minutesOfDay(hours.start), minutesOfDay(hours.end));
}

export function scoreEvent(input: ScoreInput): { score: number; factors: ThreatFactors } {
  const values: Record<keyof typeof FACTOR_WEIGHTS, number> = {
    type: TYPE_WEIGHTS[input.type] ?? 0.3,
    zone: input.zoneLevels.length > 0 ? (Math.max(...input.zoneLevels) - 1) / 4 : 0,
    after_hours: withinBusinessHours(input.occurredAt, input.businessHours) ? 0 : 1,
    density: input.zoneLevels.length > 0 ? Math.min(1, input.recentInZone / DENSITY_SATURATION) : 0,
    sensor_health: input.sensorHealth ? HEALTH_VALUES[input.sensorHealth]! : 0,
    reported_severity: input.reportedSeverity ? (SEVERITY_VALUES[input.reportedSeverity] ?? 0) : 0,
  };
  const factors = Object.fromEntries(
    (Object.keys(FACTOR_WEIGHTS) as (keyof typeof FACTOR_WEIGHTS)[]).map((k) => [
      k,
      { value: round(values[k]), weight: FACTOR_WEIGHTS[k] },
    ]),
  ) as ThreatFactors;
  const signatures = signatureFactor(input.signatures ?? []);
  if (signatures) factors.signatures = signatures;
  const score = round(Object.values(factors).reduce((sum, f) => sum + f.value * f.weight, 0));
  return { score: Math.min(1, Math.max(0, score)), factors };
}
