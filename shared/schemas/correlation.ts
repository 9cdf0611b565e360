/** Cross-domain correlation (GET /api/v1/correlation, docs/correlation.md). */
import { timestamp, uuid } from './common.js';
import { latitude, longitude } from './geo.js';
import type { JsonSchema } from './json-schema.js';

export const CORRELATION_DOMAINS = ['sensors', 'ais', 'feeds', 'reports', 'other'] as const;
/** Matches a domain answers at most, best first. */
export const MAX_MATCHES_PER_DOMAIN = 50;

export const correlationQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      event_id: { ...uuid, description: 'Anchor on this event of yours: its place and time.' },
      incident_id: { ...uuid, description: 'Anchor on this incident of yours: its location and when it occurred.' },
      lat: { ...latitude, description: 'Anchor on a point (with lon), at `at` (default now).' },
      lon: { ...longitude, description: 'Anchor on a point (with lat).' },
      at: { ...timestamp, description: 'The anchor time with lat/lon; default now.' },
      radius_km: {
        type: 'number',
        exclusiveMinimum: 0,
        maximum: 50,
        default: 5,
        description: 'How far from the anchor a match may be.',
      },
      window_minutes: {
        type: 'integer',
        minimum: 1,
        maximum: 1440,
        default: 60,
        description: 'How long before or after the anchor time a match may be.',
      },
    },
    // One anchor: an event, an incident, or a point (two are refused by the route, 422).
    anyOf: [
      { properties: { event_id: uuid }, required: ['event_id'] },
      { properties: { incident_id: uuid }, required: ['incident_id'] },
      { properties: { lat: latitude, lon: longitude }, required: ['lat', 'lon'] },
    ],
    dependentRequired: { lat: ['lon'], lon: ['lat'] },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

const correlationMatch = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      kind: { type: 'string', enum: ['event', 'vessel'] },
      id: { type: 'string', description: 'The event id, or the vessel MMSI.' },
      type: { type: ['string', 'null'], description: 'The event type; null for a vessel.' },
      source: { type: ['string', 'null'], description: "The event's source; null for a vessel." },
      description: { type: ['string', 'null'] },
      occurred_at: {
        ...timestamp,
        description: 'When it happened (for a vessel: its closest position in the window).',
      },
      lat: latitude,
      lon: longitude,
      distance_km: { type: 'number', minimum: 0 },
      time_offset_minutes: { type: 'number', description: 'Minutes after the anchor time (negative: before).' },
      shared_zone_ids: { type: 'array', items: uuid, description: 'Zones both it and the anchor matched.' },
      positions: {
        type: 'integer',
        minimum: 0,
        description: "A vessel's positions in the circle and window; 0 for an event.",
      },
      score: {
        type: 'number',
        minimum: 0,
        maximum: 1,
        description: 'Nearness in place and time, 1 at the anchor (docs/correlation.md).',
      },
      why: { type: 'string', description: 'Why it matched, in words.' },
    },
    required: [
      'kind',
      'id',
      'type',
      'source',
      'description',
      'occurred_at',
      'lat',
      'lon',
      'distance_km',
      'time_offset_minutes',
      'shared_zone_ids',
      'positions',
      'score',
      'why',
    ],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const correlationResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      anchor: {
        type: 'object',
        properties: {
          kind: { type: 'string', enum: ['event', 'incident', 'point'] },
          id: { type: ['string', 'null'] },
          lat: latitude,
          lon: longitude,
          at: timestamp,
          zone_ids: { type: 'array', items: uuid },
        },
        required: ['kind', 'id', 'lat', 'lon', 'at', 'zone_ids'],
        additionalProperties: false,
      },
      radius_km: { type: 'number' },
      window: {
        type: 'object',
        properties: { from: timestamp, to: timestamp },
        required: ['from', 'to'],
        additionalProperties: false,
      },
      groups: {
        type: 'array',
        description: 'One group per domain with matches, most matches first; each group best first, at most 50.',
        items: {
          type: 'object',
          properties: {
            domain: { type: 'string', enum: CORRELATION_DOMAINS },
            count: {
              type: 'integer',
              minimum: 0,
              description: 'Matches in the domain (more than listed when over 50).',
            },
            matches: { type: 'array', items: correlationMatch },
          },
          required: ['domain', 'count', 'matches'],
          additionalProperties: false,
        },
      },
      truncated: {
        type: 'boolean',
        description: 'A read reached its bound: more may have matched (narrow the window).',
      },
      method: { type: 'string', description: 'How matches were found and scored.' },
    },
    required: ['anchor', 'radius_km', 'window', 'groups', 'truncated', 'method'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();
