/** Events: what sensors, other systems and people report, as ingested, scored and streamed. */
import { nullable, pagingProperties, timestamp, uuid } from './common.js';
import { latLon } from './geo.js';
import type { InputOf, JsonSchema } from './json-schema.js';
import { SEVERITIES } from './tenants.js';
import { tenantScope } from './users.js';
import { INCIDENT_SEVERITIES } from '../vocabulary/incidents.js';

import { EVENT_FIELDS } from '../vocabulary/event-fields.js';
import { EVENT_TYPES, type EventType } from '../vocabulary/event-types.js';

export { EVENT_TYPES, type EventType } from '../vocabulary/event-types.js';

export const EVENT_SOURCES = ['sensor', 'api', 'human'] as const;

/** Most events one batch may hold (the spec). */
export const MAX_BATCH_EVENTS = 100;
/** Largest event payload, in bytes of JSON. */
export const MAX_PAYLOAD_BYTES = 16 * 1024;

const mmsi = { type: 'string', pattern: '^[0-9]{9}$' } as const;
/** One AIS message as NMEA 0183 sentences (!AIVDM, !AIVDO, an NMEA 4 tag block allowed): one, or every part of a multi-part message in order. */
const aisSentence = { type: 'string', minLength: 1, maxLength: 256 } as const;
const aisSentences = { anyOf: [aisSentence, { type: 'array', items: aisSentence, minItems: 1, maxItems: 9 }] } as const;
/** An AIS report: its sentences, or the MMSI of a decoded one (docs/vessels.md). */
const aisMessage = {
  type: 'object',
  properties: { nmea: aisSentences, mmsi },
  if: { properties: { nmea: aisSentences }, required: ['nmea'] },
  else: { properties: { mmsi }, required: ['mmsi'] },
} as const;

/** Payload schemas of the types whose payload is fixed; other types take any object. */
export const EVENT_PAYLOADS: Partial<Record<EventType, JsonSchema>> = /* @__PURE__ */ (() => ({
  'sensor.reading': {
    type: 'object',
    properties: {
      value: { type: 'number' },
      unit: { type: 'string', maxLength: 32 },
      metric: { type: 'string', maxLength: 64 },
    },
    required: ['value'],
  },
  'ais.position': {
    type: 'object',
    properties: {
      ...aisMessage.properties,
      sog_knots: { type: 'number', minimum: 0, maximum: 102.2 },
      cog_degrees: { type: 'number', minimum: 0, maximum: 360 },
      heading_degrees: { type: 'number', minimum: 0, maximum: 511 },
    },
    if: aisMessage.if,
    else: aisMessage.else,
  },
  // Identity fields are read defensively by the tracker (docs/vessels.md): only the message is checked.
  'ais.static': aisMessage,
  'access.denied': {
    type: 'object',
    properties: { credential_id: { type: 'string', maxLength: 128 }, reason: { type: 'string', maxLength: 200 } },
  },
}))();

/** A UUIDv7 (time-ordered): client-supplied event ids must be, so they sort by time like ours. */
const uuidV7 = {
  type: 'string',
  pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$',
  description:
    'A UUIDv7 you generate (its time at most a minute ahead, at most 24 hours behind): sending the same event again (a retry) stores it once.',
} as const;

const eventType = { type: 'string', enum: EVENT_TYPES, description: 'What happened; see the EventType list.' } as const;
const severity = {
  type: 'string',
  enum: SEVERITIES,
  description: "The reporter's own view of severity, if any.",
} as const;

const payloadRules = /* @__PURE__ */ (() =>
  Object.entries(EVENT_PAYLOADS).map(([type, payload]) => ({
    if: { properties: { type: { const: type } }, required: ['type'] },
    then: { properties: { payload } },
  })))();

export const eventCreate = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      event_id: uuidV7,
      tenant_id: tenantScope,
      environment_id: { ...uuid, description: 'Where it happened; needed for geofence matching.' },
      sensor_id: { ...uuid, description: 'The sensor that reported it.' },
      type: eventType,
      source: { type: 'string', enum: EVENT_SOURCES, default: 'api' },
      occurred_at: { ...timestamp, description: 'When it happened; defaults to when it was received.' },
      location: { ...latLon, description: 'Where it happened; defaults to the sensor location.' },
      severity,
      description: { type: 'string', maxLength: 2000 },
      payload: {
        type: 'object',
        description: 'Type-specific data (fixed for some types); at most 16 KB as JSON (413 beyond).',
      },
    },
    required: ['type'],
    additionalProperties: false,
    allOf: payloadRules,
  }) as const satisfies JsonSchema)();

/** An event as a client or the service's own code sends it to ingest (shared/domain/events/ingest.ts). */
export type EventInput = InputOf<typeof eventCreate>;

export const eventBatchCreate = {
  type: 'object',
  properties: {
    events: { type: 'array', items: eventCreate, minItems: 1, maxItems: MAX_BATCH_EVENTS },
  },
  required: ['events'],
  additionalProperties: false,
} as const satisfies JsonSchema;

const threatFactors = {
  type: ['object', 'null'],
  description: 'What produced the threat score, each factor in 0..1 with its weight.',
  additionalProperties: { type: 'object', properties: { value: { type: 'number' }, weight: { type: 'number' } } },
} as const;

export const eventResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      event_id: uuid,
      tenant_id: uuid,
      environment_id: { ...uuid, type: ['string', 'null'] },
      sensor_id: { ...uuid, type: ['string', 'null'] },
      type: eventType,
      source: { type: 'string', enum: EVENT_SOURCES },
      occurred_at: timestamp,
      received_at: timestamp,
      location: { ...latLon, type: ['object', 'null'] },
      severity: nullable(severity),
      description: { type: ['string', 'null'] },
      payload: { type: 'object' },
      matched_zone_ids: { type: 'array', items: uuid, description: 'Zones whose geofence contains the location.' },
      matched_signatures: {
        type: 'array',
        description:
          'The active threat definitions it matched when ingested (docs/threat-libraries.md); each added its weight to the score, as the `signatures` factor.',
        items: {
          type: 'object',
          properties: {
            library_id: uuid,
            definition_id: { type: 'string' },
            name: { type: 'string' },
            severity: { type: 'string', enum: INCIDENT_SEVERITIES },
            weight: { type: 'number' },
            zone_id: {
              ...uuid,
              type: ['string', 'null'],
              description: "The zone its zone conditions held in (or the event's first zone); null outside zones.",
            },
          },
          required: ['library_id', 'definition_id', 'name', 'severity', 'weight', 'zone_id'],
        },
      },
      threat_score: { type: ['number', 'null'], minimum: 0, maximum: 1 },
      threat_factors: threatFactors,
      processed: { type: 'boolean', description: 'Set by an operator once handled; false when new.' },
      processed_at: { ...timestamp, type: ['string', 'null'] },
      incident_id: { ...uuid, type: ['string', 'null'] },
    },
    required: [...EVENT_FIELDS],
  }) as const satisfies JsonSchema)();

export const eventPath = {
  type: 'object',
  properties: { event_id: { type: 'string', minLength: 1, maxLength: 64 } },
  required: ['event_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const eventListQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: { type: 'string', maxLength: 64, description: tenantScope.description },
      environment_id: { type: 'string', maxLength: 64 },
      type: eventType,
      processed: { type: 'boolean' },
      zone_id: {
        ...uuid,
        description: "Events whose geofence match includes this zone (404 when it is not your tenant's zone).",
      },
      min_score: { type: 'number', minimum: 0, maximum: 1, description: 'Events whose threat score is at least this.' },
      source: { type: 'string', enum: EVENT_SOURCES, description: 'Events from this kind of source.' },
      start_date: { ...timestamp, description: 'Events that occurred at or after this time.' },
      end_date: { ...timestamp, description: 'Events that occurred at or before this time.' },
      q: {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        pattern: '\\S',
        description:
          'Words that must all appear (case-insensitive) in the description, type, source or a payload value at any depth. Not an index: it filters the newest 10,000 events the other filters select (X-Read-Limit-Reached past that); narrow by dates to reach older ones.',
      },
      ...pagingProperties,
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const eventScopeQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: { tenant_id: { type: 'string', maxLength: 64, description: tenantScope.description } },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const eventProcessedUpdate = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      processed: { type: 'boolean' },
      threat_score: {
        type: 'number',
        minimum: 0,
        maximum: 1,
        description: "An operator's own assessment; replaces the computed score.",
      },
      incident_id: { ...uuid, type: ['string', 'null'], description: 'The incident this event belongs to.' },
    },
    required: ['processed'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const manualReportCreate = {
  type: 'object',
  properties: {
    tenant_id: tenantScope,
    environment_id: uuid,
    title: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
    description: { type: 'string', minLength: 1, maxLength: 5000 },
    location: latLon,
    occurred_at: timestamp,
    severity,
    reporter_name: { type: 'string', maxLength: 200 },
    event_id: uuidV7,
  },
  required: ['environment_id', 'title', 'description'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const manualReportResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      report_id: { ...uuid, description: 'The id of the event the report became.' },
      event: eventResponse,
    },
    required: ['report_id', 'event'],
  }) as const satisfies JsonSchema)();

export const eventStreamQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      event_type: { ...eventType, description: 'Only events of this type.' },
      tenant_id: {
        type: 'string',
        maxLength: 64,
        description: 'Only this tenant (a SUPER_ADMIN may omit it to watch all).',
      },
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

/** The Idempotency-Key header of the creating routes. */
export const idempotencyHeaders = {
  type: 'object',
  properties: {
    'idempotency-key': {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      pattern: '^[\\x21-\\x7e]+$',
      description: 'Makes a retry safe: the same key with the same body answers the first answer again (for 24 hours).',
    },
  },
} as const satisfies JsonSchema;

/** The Last-Event-ID header of the event stream. */
export const streamHeaders = {
  type: 'object',
  properties: {
    'last-event-id': {
      type: 'string',
      maxLength: 64,
      description: 'Resume after this event: nothing lost, nothing repeated.',
    },
  },
} as const satisfies JsonSchema;
