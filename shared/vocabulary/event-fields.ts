/**
 * The fields of an event as the API answers it: the event schema's required list
 * (shared/schemas/events.ts) and what the store picks from an event item (shared/db/event-items.ts),
 * one list so the two cannot drift.
 */
export const EVENT_FIELDS = [
  'event_id',
  'tenant_id',
  'environment_id',
  'sensor_id',
  'type',
  'source',
  'occurred_at',
  'received_at',
  'location',
  'severity',
  'description',
  'payload',
  'matched_zone_ids',
  'matched_signatures',
  'threat_score',
  'threat_factors',
  'processed',
  'processed_at',
  'incident_id',
] as const;
