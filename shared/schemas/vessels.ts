/** Vessels, their tracks and behaviour, infrastructure lines and cable risk (docs/vessels.md). */
import { pagingProperties, timestamp, uuid } from './common.js';
import { latitude, longitude } from './geo.js';
import type { JsonSchema } from './json-schema.js';
import { tenantScope } from './users.js';
import { nearLine } from './lines.js';
import { SCORE_SEVERITIES } from '../vocabulary/score-bands.js';

const scope = /* @__PURE__ */ (() =>
  ({ tenant_id: { type: 'string', maxLength: 64, description: tenantScope.description } }) as const)();
/** Vessels a name search reads at most (the most recently seen in the window) before matching. */
export const VESSEL_NAME_READ = 5000;

export const mmsi = {
  type: 'string',
  pattern: '^[0-9]{9}$',
  description: 'Maritime Mobile Service Identity, 9 digits.',
} as const;
const point = {
  type: 'object',
  properties: { lat: latitude, lon: longitude },
  required: ['lat', 'lon'],
} as const;

export const vesselPath = {
  type: 'object',
  properties: { mmsi },
  required: ['mmsi'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const vesselScopeQuery = {
  type: 'object',
  properties: scope,
  additionalProperties: false,
} as const satisfies JsonSchema;

const hoursParam = (fallback: number, max: number, what: string) =>
  ({
    type: 'integer',
    minimum: 1,
    maximum: max,
    default: fallback,
    description: `${what} (hours back from now; ${fallback} unless given, at most ${max}).`,
  }) as const;

export const vesselProfileQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: { ...scope, hours: hoursParam(24, 168, 'The track and behaviour window') },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const vesselListQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      ...scope,
      hours: hoursParam(24, 720, 'Vessels seen in this window'),
      lat: {
        ...latitude,
        description: 'With lon and radius_km: vessels seen within the circle (served by the area index).',
      },
      lon: longitude,
      radius_km: {
        type: 'number',
        exclusiveMinimum: 0,
        maximum: 50,
        description: 'Radius of the circle around lat, lon (km, at most 50; 10 unless given).',
      },
      mmsi: { ...mmsi, description: 'This vessel only: an empty list when it was not seen in the window.' },
      name: {
        type: 'string',
        minLength: 1,
        maxLength: 20,
        pattern: '\\S',
        description: `Vessels whose name (from their static AIS reports) contains this, in any case; runs of spaces count as one. Matched over the window's ${VESSEL_NAME_READ} most recently seen vessels at most.`,
      },
      ...pagingProperties,
    },
    dependentRequired: { lat: ['lon'], lon: ['lat'], radius_km: ['lat', 'lon'] },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const trackQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      ...scope,
      start_date: {
        ...timestamp,
        description: 'Positions at or after this time; 24 hours before end_date unless given.',
      },
      end_date: { ...timestamp, description: 'Positions at or before this time; now unless given.' },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: 5000,
        default: 1000,
        description: 'Positions at most, oldest first.',
      },
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const darkVesselsQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      ...scope,
      kind: {
        type: 'string',
        enum: ['dark', 'loitering', 'all'],
        default: 'all',
        description: 'Dark (AIS gaps, and vessels silent now), loitering, or both.',
      },
      hours: hoursParam(24, 720, 'Episodes that ended (or vessels last seen) in this window'),
      limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const aisStatsQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      ...scope,
      days: { type: 'integer', minimum: 1, maximum: 90, default: 7, description: 'UTC days back, today included.' },
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const positionSchema = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      mmsi,
      event_id: uuid,
      occurred_at: timestamp,
      lat: latitude,
      lon: longitude,
      sog_knots: { type: ['number', 'null'] },
      cog_degrees: { type: ['number', 'null'] },
      heading_degrees: { type: ['number', 'null'] },
      nav_status: { type: ['integer', 'null'] },
      message_type: { type: ['integer', 'null'] },
      environment_id: { ...uuid, type: ['string', 'null'] },
      zone_ids: { type: 'array', items: uuid },
    },
    required: [
      'mmsi',
      'event_id',
      'occurred_at',
      'lat',
      'lon',
      'sog_knots',
      'cog_degrees',
      'heading_degrees',
      'nav_status',
      'zone_ids',
    ],
  }) as const satisfies JsonSchema)();

const flag = {
  type: ['object', 'null'],
  description: "The flag state from the MMSI's Maritime Identification Digits (ITU); null when the MMSI carries none.",
  properties: { mid: { type: 'string' }, country_code: { type: 'string' }, country: { type: 'string' } },
  required: ['mid', 'country_code', 'country'],
} as const;

const identity = /* @__PURE__ */ (() =>
  ({
    type: ['object', 'null'],
    description:
      'What the vessel said it is (static data, AIS types 5 and 24, and the name, ship type and size of a type 19 position report), each field from the newest report that told it; null until it has said.',
    properties: {
      name: { type: ['string', 'null'] },
      call_sign: { type: ['string', 'null'] },
      imo: { type: ['integer', 'null'] },
      ship_type: { type: ['integer', 'null'] },
      ship_type_category: { type: 'string' },
      ship_type_description: { type: 'string' },
      dimensions: { type: ['object', 'null'] },
      length_m: { type: ['number', 'null'] },
      beam_m: { type: ['number', 'null'] },
      draught_m: { type: ['number', 'null'] },
      destination: { type: ['string', 'null'] },
      reported_at: { ...timestamp, type: ['string', 'null'] },
    },
  }) as const)();

export const vesselSummary = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      mmsi,
      name: { type: ['string', 'null'] },
      flag_state: {
        type: ['string', 'null'],
        description:
          "ISO 3166-1 alpha-2 code of the flag state, from the MMSI's MID; the profile names the administration.",
      },
      ship_type_category: { type: 'string' },
      first_seen: timestamp,
      last_seen: {
        ...timestamp,
        type: ['string', 'null'],
        description:
          'Its last position report; null for a vessel that has sent static data only (listed by its last such report).',
      },
      last_position: { ...positionSchema, type: ['object', 'null'] },
      silent_minutes: {
        type: ['number', 'null'],
        description: 'Minutes since the last position; null for a vessel that has sent none.',
      },
    },
    required: [
      'mmsi',
      'name',
      'flag_state',
      'ship_type_category',
      'first_seen',
      'last_seen',
      'last_position',
      'silent_minutes',
    ],
  }) as const satisfies JsonSchema)();

const gap = {
  type: 'object',
  properties: {
    start: timestamp,
    end: timestamp,
    duration_minutes: { type: 'number' },
    from: point,
    to: point,
    distance_m: { type: 'number' },
  },
  required: ['start', 'end', 'duration_minutes', 'from', 'to'],
} as const;

const loitering = {
  type: 'object',
  properties: {
    start: timestamp,
    end: timestamp,
    duration_minutes: { type: 'number' },
    center: point,
    radius_m: { type: 'number' },
    mean_sog_knots: { type: ['number', 'null'] },
  },
  required: ['start', 'end', 'duration_minutes', 'center', 'radius_m', 'mean_sog_knots'],
} as const;

export const vesselProfile = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      mmsi,
      mmsi_kind: {
        type: 'string',
        description: 'What the MMSI numbers: a ship, a coast station, an aid to navigation, a SAR aircraft...',
      },
      flag,
      identity,
      first_seen: { ...timestamp, description: 'Its first report of any kind (position or static data).' },
      last_seen: {
        ...timestamp,
        type: ['string', 'null'],
        description:
          'Its last position report; null for a vessel known from static data only (sent every 6 minutes, often before any position): then `notes` says so.',
      },
      last_position: { ...positionSchema, type: ['object', 'null'] },
      status: {
        type: 'object',
        properties: {
          dark: {
            type: 'boolean',
            description: 'Silent for longer than the gap threshold now (false while it has sent no position).',
          },
          silent_minutes: {
            type: ['number', 'null'],
            description: 'Minutes since its last position; null without one.',
          },
          loitering: {
            type: 'boolean',
            description: 'Its latest positions form a loitering episode that has not ended.',
          },
        },
        required: ['dark', 'silent_minutes', 'loitering'],
      },
      window: {
        type: 'object',
        properties: { from: timestamp, to: timestamp, hours: { type: 'integer' } },
        required: ['from', 'to', 'hours'],
      },
      track: {
        type: 'object',
        properties: {
          positions: { type: 'integer' },
          distance_km: { type: 'number' },
          max_sog_knots: { type: ['number', 'null'] },
          mean_sog_knots: { type: ['number', 'null'] },
          bbox: { type: ['array', 'null'], items: { type: 'number' } },
          truncated: {
            type: 'boolean',
            description: 'The window held more positions than a profile reads (the newest were read).',
          },
        },
        required: ['positions', 'distance_km', 'max_sog_knots', 'mean_sog_knots', 'bbox', 'truncated'],
      },
      behaviour: {
        type: 'object',
        properties: {
          gaps: { type: 'array', items: gap },
          loitering: { type: 'array', items: loitering },
          speed_anomalies: { type: 'array', items: { type: 'object' } },
          zone_entries: {
            type: 'array',
            items: {
              type: 'object',
              properties: { zone_id: uuid, at: timestamp, position: point },
              required: ['zone_id', 'at', 'position'],
            },
          },
          thresholds: { type: 'object' },
        },
        required: ['gaps', 'loitering', 'speed_anomalies', 'zone_entries', 'thresholds'],
      },
      infrastructure: {
        type: 'object',
        properties: {
          nearest_lines: { type: 'array', items: nearLine, description: 'Lines within 10 km of the last position.' },
          closest_approach: {
            type: ['object', 'null'],
            description: 'The closest the track came to any line in the window (within 10 km).',
            properties: {
              line_id: { type: 'string' },
              name: { type: ['string', 'null'] },
              kind: { type: 'string' },
              distance_m: { type: 'number' },
              at: timestamp,
            },
          },
        },
        required: ['nearest_lines', 'closest_approach'],
      },
      notes: {
        type: 'array',
        items: { type: 'string' },
        description: 'What the data could not tell (no identity yet, no lines, no positions in the window).',
      },
    },
    required: [
      'mmsi',
      'mmsi_kind',
      'flag',
      'identity',
      'first_seen',
      'last_seen',
      'last_position',
      'status',
      'window',
      'track',
      'behaviour',
      'infrastructure',
      'notes',
    ],
  }) as const satisfies JsonSchema)();

export const trackResponse = {
  type: 'object',
  properties: {
    mmsi,
    start_date: timestamp,
    end_date: timestamp,
    positions: { type: 'array', items: positionSchema },
    truncated: {
      type: 'boolean',
      description: 'More positions lie in the range than `limit`: ask again from the last one.',
    },
  },
  required: ['mmsi', 'start_date', 'end_date', 'positions', 'truncated'],
} as const satisfies JsonSchema;

export const darkVesselsResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      window: { type: 'object', properties: { from: timestamp, to: timestamp }, required: ['from', 'to'] },
      dark_now: {
        type: 'array',
        items: vesselSummary,
        description: 'Seen in the window, silent for longer than the gap threshold now.',
      },
      gaps: {
        type: 'array',
        items: { ...gap, properties: { ...gap.properties, mmsi, event_id: { ...uuid, type: ['string', 'null'] } } },
      },
      loitering: {
        type: 'array',
        items: {
          ...loitering,
          properties: { ...loitering.properties, mmsi, event_id: { ...uuid, type: ['string', 'null'] } },
        },
      },
    },
    required: ['window', 'dark_now', 'gaps', 'loitering'],
  }) as const satisfies JsonSchema)();

export const aisStatsResponse = {
  type: 'object',
  properties: {
    days: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          day: { type: 'string' },
          failed: { type: 'integer' },
          failures: { type: 'object', additionalProperties: { type: 'integer' } },
        },
        required: ['day', 'failed', 'failures'],
      },
    },
    failed: { type: 'integer', description: 'Failures in all the days asked for.' },
    by_reason: { type: 'object', additionalProperties: { type: 'integer' } },
  },
  required: ['days', 'failed', 'by_reason'],
} as const satisfies JsonSchema;

export const cableRiskQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      ...scope,
      lat: latitude,
      lon: longitude,
      hours: hoursParam(24, 168, 'Vessel activity and events considered'),
    },
    required: ['lat', 'lon'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

const factor = {
  type: 'object',
  properties: {
    value: { type: 'number', minimum: 0, maximum: 1 },
    weight: { type: 'number' },
    detail: { type: 'string' },
  },
  required: ['value', 'weight', 'detail'],
} as const;

export const cableRiskResponse = {
  type: 'object',
  properties: {
    location: point,
    risk: { type: 'integer', minimum: 0, maximum: 100 },
    severity: {
      type: 'string',
      enum: SCORE_SEVERITIES,
      description: 'LOW below 25, MEDIUM from 25, HIGH from 50, CRITICAL from 75.',
    },
    nearest_lines: { type: 'array', items: nearLine },
    factors: {
      type: 'object',
      properties: {
        distance: factor,
        vessel_activity: factor,
        anchoring_loitering: factor,
        threat_definitions: factor,
        events_incidents: factor,
      },
      required: ['distance', 'vessel_activity', 'anchoring_loitering', 'threat_definitions', 'events_incidents'],
    },
    window: { type: 'object', properties: { from: timestamp, to: timestamp }, required: ['from', 'to'] },
    notes: { type: 'array', items: { type: 'string' } },
  },
  required: ['location', 'risk', 'severity', 'nearest_lines', 'factors', 'window', 'notes'],
} as const satisfies JsonSchema;
