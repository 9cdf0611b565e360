/** Watchlist alerts as listed (docs/watchlist.md): the `watchlist.alert` events, shaped for the watchlist. */
import { pagingProperties, timestamp, uuid } from '../common.js';
import { latitude, longitude } from '../geo.js';
import type { JsonSchema } from '../json-schema.js';
import { tenantScope } from '../users.js';
import { WATCHLIST_ENTITY_TYPES } from '../../vocabulary/watchlist.js';

export const ALERT_TRIGGERS = ['event', 'position', 'score'] as const;

export const watchlistAlertQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: { type: 'string', maxLength: 64, description: tenantScope.description },
      entry_id: { ...uuid, description: 'Alerts of this watchlist entry.' },
      entity_type: { type: 'string', enum: WATCHLIST_ENTITY_TYPES, description: 'Alerts on entries of this type.' },
      trigger: {
        type: 'string',
        enum: ALERT_TRIGGERS,
        description: 'What touched the entry: an event naming it, a vessel position, or a threat score.',
      },
      start_date: {
        ...timestamp,
        description:
          'Alerts raised at or after this time (when the touch was received, not the time the touching event reports).',
      },
      end_date: { ...timestamp, description: 'Alerts raised at or before this time.' },
      ...pagingProperties,
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const watchlistAlertResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      alert_id: {
        ...uuid,
        description:
          "The `watchlist.alert` event's id (`GET /api/v1/events/{event_id}` shows the event); a UUIDv7 of when it was raised.",
      },
      entry_id: uuid,
      entity_type: { type: 'string', enum: WATCHLIST_ENTITY_TYPES },
      value: { type: 'string', description: 'The watched entity, as the entry keeps it.' },
      label: { type: 'string' },
      trigger: { type: 'string', enum: ALERT_TRIGGERS },
      subject: { type: 'string', description: 'What touched it, in words.' },
      occurred_at: {
        ...timestamp,
        description: "When the touch happened: the touching event's or position's time, or the score's.",
      },
      location: {
        type: ['object', 'null'],
        properties: { lat: latitude, lon: longitude },
        required: ['lat', 'lon'],
        additionalProperties: false,
      },
      environment_id: { type: ['string', 'null'] },
      threat_score: { type: ['number', 'null'], description: "The alert event's own score at ingest." },
      incident_id: { type: ['string', 'null'], description: 'The incident the alert opened or joined, if any.' },
      details: {
        type: 'object',
        description:
          'What the trigger adds: the touching event (`event_id`, `event_type`, `mention`), the vessel (`mmsi`, `distance_m` to a line), or the score (`target`, `target_type`, `context`, `composite_score`, `severity`).',
      },
    },
    required: [
      'alert_id',
      'entry_id',
      'entity_type',
      'value',
      'label',
      'trigger',
      'subject',
      'occurred_at',
      'location',
      'environment_id',
      'threat_score',
      'incident_id',
      'details',
    ],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();
