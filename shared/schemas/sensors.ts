/** Sensors of an environment, with a health derived from their last report. */
import { pagingProperties, timestamp, uuid } from './common.js';
import { latLon } from './geo.js';
import type { JsonSchema } from './json-schema.js';
import { tenantScope } from './users.js';

export const SENSOR_TYPES = [
  'camera',
  'thermal_camera',
  'motion',
  'door_contact',
  'glass_break',
  'access_control',
  'fibre_optic',
  'radar',
  'lidar',
  'acoustic',
  'ais_receiver',
  'other',
] as const;
export const SENSOR_STATUSES = ['active', 'maintenance', 'disabled'] as const;
export const SENSOR_HEALTH = ['online', 'degraded', 'offline'] as const;

/** The spec types sensor ids as strings; they are UUIDs, but a malformed one is simply not found. */
export const sensorIdString = { type: 'string', minLength: 1, maxLength: 64 } as const;

const name = { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' } as const;
const type = { type: 'string', enum: SENSOR_TYPES } as const;
const status = {
  type: 'string',
  enum: SENSOR_STATUSES,
  description: 'Set by people: active, maintenance (reports expected to stop), disabled.',
} as const;
const zoneId = /* @__PURE__ */ (() =>
  ({
    ...uuid,
    type: ['string', 'null'],
    description: 'A zone of the same environment the sensor watches.',
  }) as const)();
const text = (max: number) => ({ type: ['string', 'null'], maxLength: max }) as const;

/**
 * Where a fibre sensor's channels lie (docs/fibre-telemetry.md): on which infrastructure line,
 * and at which distance along it each channel sits, by a start and a spacing or by calibration
 * points; and the value above which a channel's reading is a detection. Only for `fibre_optic`.
 */
export const fibreConfig = /* @__PURE__ */ (() =>
  ({
    type: ['object', 'null'],
    description:
      "A fibre_optic sensor's mapping of channels onto a line, and its detection threshold (docs/fibre-telemetry.md). Null for other types.",
    properties: {
      line_id: {
        type: 'string',
        minLength: 3,
        maxLength: 100,
        pattern: '^[0-9a-f-]{36}:[0-9]+(\\.[0-9]+)?$',
        description: 'The line the fibre follows: `<file_id>:<line in the file>` (GET /api/v1/infrastructure/lines).',
      },
      start_distance_m: {
        type: 'number',
        minimum: -1_000_000,
        maximum: 1_000_000,
        default: 0,
        description: 'Distance along the line (from its first vertex) of channel 0, in metres.',
      },
      channel_spacing_m: {
        type: 'number',
        exclusiveMinimum: 0,
        maximum: 10_000,
        description: 'Metres of line between adjacent channels.',
      },
      calibration: {
        type: 'array',
        minItems: 2,
        maxItems: 200,
        description:
          'Instead of start and spacing: channels at known distances along the line, channels increasing; channels in between (and beyond) are interpolated (extrapolated) linearly.',
        items: {
          type: 'object',
          properties: {
            channel: { type: 'integer', minimum: 0, maximum: 1_000_000 },
            distance_m: { type: 'number', minimum: -1_000_000, maximum: 1_000_000 },
          },
          required: ['channel', 'distance_m'],
          additionalProperties: false,
        },
      },
      threshold: {
        type: 'number',
        minimum: -1e12,
        maximum: 1e12,
        description: 'A channel reading above this is a detection (same unit as the values posted).',
      },
    },
    required: ['line_id', 'threshold'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const sensorCreate = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      tenant_id: tenantScope,
      environment_id: uuid,
      name,
      type,
      location: latLon,
      zone_id: zoneId,
      status: { ...status, default: 'active' },
      model: text(200),
      serial_number: text(200),
      fibre: fibreConfig,
    },
    required: ['environment_id', 'name', 'type', 'location'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const sensorUpdate = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      name,
      type,
      location: latLon,
      zone_id: zoneId,
      status,
      model: text(200),
      serial_number: text(200),
      fibre: fibreConfig,
    },
    minProperties: 1,
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const sensorResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      sensor_id: uuid,
      tenant_id: uuid,
      environment_id: uuid,
      name: { type: 'string' },
      type,
      location: latLon,
      zone_id: zoneId,
      status,
      model: text(200),
      serial_number: text(200),
      fibre: fibreConfig,
      last_seen_at: { ...timestamp, type: ['string', 'null'], description: 'When the sensor last reported.' },
      health: {
        type: 'string',
        enum: SENSOR_HEALTH,
        description:
          "From the last report and the tenant's sensor_heartbeat_timeout_seconds: online within half the timeout, degraded within it, offline beyond it or never seen.",
      },
      created_at: timestamp,
      updated_at: timestamp,
    },
    required: [
      'sensor_id',
      'tenant_id',
      'environment_id',
      'name',
      'type',
      'location',
      'zone_id',
      'status',
      'model',
      'serial_number',
      'fibre',
      'last_seen_at',
      'health',
      'created_at',
      'updated_at',
    ],
  }) as const satisfies JsonSchema)();

export const sensorPath = {
  type: 'object',
  properties: { sensor_id: sensorIdString },
  required: ['sensor_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

/** Optional scoping, as the spec has it: strings. */
export const sensorScopeQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      environment_id: sensorIdString,
      tenant_id: { ...sensorIdString, description: tenantScope.description },
    },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const sensorListQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: { ...sensorScopeQuery.properties, ...pagingProperties },
    required: ['environment_id'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();
