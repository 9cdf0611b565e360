/** The names of event types (their schemas: shared/schemas/events.ts), apart so that what only names them carries no schema. */

/**
 * The event types a client may send. Each has a base weight in threat scoring
 * (shared/domain/events/scoring.ts) and, where it is fixed, a payload schema (shared/schemas/events.ts).
 */
export const EVENT_TYPES = [
  'sensor.reading',
  'sensor.alert',
  'sensor.heartbeat',
  'sensor.tamper',
  'motion.detected',
  'intrusion.detected',
  'perimeter.breach',
  'door.forced',
  'door.held_open',
  'access.denied',
  'access.granted',
  'tailgating.detected',
  'glass.break',
  'fibre.disturbance',
  'drone.detected',
  'vehicle.detected',
  'ais.position',
  'ais.static',
  'ais.gap',
  'vessel.loitering',
  'watchlist.alert',
  'hazard.alert',
  'bgp.alert',
  'manual_report',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
