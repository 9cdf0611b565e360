/**
 * Drone dispatch (docs/drones.md): a command signed to a `drone` integration (a dock or fleet API),
 * and the signed status callbacks the dock posts back, which land on the incident's timeline.
 */
import { pageOf, timestamp, uuid } from './common.js';
import { latLon } from './geo.js';
import type { JsonSchema } from './json-schema.js';

/** What a drone is sent to do; one dispatch per task and incident. */
export const DRONE_TASKS = ['inspect', 'track', 'overwatch', 'return'] as const;
export type DroneTask = (typeof DRONE_TASKS)[number];

/** What a dock may report in a callback. */
export const DRONE_UPDATE_STATUSES = [
  'accepted',
  'rejected',
  'launched',
  'en_route',
  'on_scene',
  'observation',
  'returning',
  'returned',
  'completed',
  'failed',
] as const;
export type DroneUpdateStatus = (typeof DRONE_UPDATE_STATUSES)[number];

/**
 * A dispatch's status: `pending` while the command is being sent, `sent` when the dock answered
 * 2xx, `failed` when it did not (or a callback said so), then whatever the dock reported last.
 */
export const DRONE_DISPATCH_STATUSES = /* @__PURE__ */ (() => ['pending', 'sent', ...DRONE_UPDATE_STATUSES] as const)();

export const droneDispatchCreate = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      integration_id: {
        ...uuid,
        description: 'A `drone` integration of the tenant (the dock or fleet API the command goes to).',
      },
      task: {
        type: 'string',
        enum: DRONE_TASKS,
        description:
          'inspect: fly to the target and look; track: follow what is there; overwatch: hold above it; return: bring the drone home.',
      },
      target: {
        ...latLon,
        description:
          "Where to fly; the incident's location when absent. It must lie inside an active zone's geofence of one of the tenant's environments, or within 5 km of an environment's reference location (422 otherwise).",
      },
      altitude_m: {
        type: 'number',
        minimum: 10,
        maximum: 120,
        description: 'Height above ground to fly at, in metres (10-120; the dock decides when absent).',
      },
      note: { type: 'string', minLength: 1, maxLength: 1000, description: 'Free text for the pilot or the dock.' },
    },
    required: ['integration_id', 'task'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

const position = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      lat: latLon.properties.lat,
      lon: latLon.properties.lon,
      alt_m: { type: 'number', minimum: -500, maximum: 10_000 },
    },
    required: ['lat', 'lon'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

const nullableText = { type: ['string', 'null'] } as const;

export const droneDispatchResponse = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      dispatch_id: uuid,
      incident_id: uuid,
      tenant_id: uuid,
      integration_id: uuid,
      task: { type: 'string', enum: DRONE_TASKS },
      target: latLon,
      altitude_m: { type: ['number', 'null'] },
      note: nullableText,
      status: { type: 'string', enum: DRONE_DISPATCH_STATUSES },
      requested_by: { type: 'string', description: 'Who dispatched it (a user id).' },
      attempts: {
        type: 'integer',
        description:
          'How many times the command was sent (a failed one is sent again by the next dispatch of the same task).',
      },
      dock_status_code: {
        type: ['integer', 'null'],
        description: "The dock's HTTP status for the command; null when it gave none.",
      },
      dock_answer: { ...nullableText, description: "The first 500 characters of the dock's answer." },
      dock_error: { ...nullableText, description: 'Why the command did not reach the dock (refused, timed out, ...).' },
      sent_at: { type: ['string', 'null'], format: 'date-time' },
      last_update: {
        type: ['object', 'null'],
        description: 'The last callback taken from the dock.',
        properties: {
          status: { type: 'string', enum: DRONE_UPDATE_STATUSES },
          at: timestamp,
          text: nullableText,
          media_url: nullableText,
        },
      },
      created_at: timestamp,
      updated_at: timestamp,
    },
    required: [
      'dispatch_id',
      'incident_id',
      'tenant_id',
      'integration_id',
      'task',
      'target',
      'altitude_m',
      'note',
      'status',
      'requested_by',
      'attempts',
      'dock_status_code',
      'dock_answer',
      'dock_error',
      'sent_at',
      'last_update',
      'created_at',
      'updated_at',
    ],
  }) as const satisfies JsonSchema)();

export const droneDispatchList = /* @__PURE__ */ (() =>
  pageOf(droneDispatchResponse, 'A page of the dispatches, oldest first.'))();

export const droneCallbackPath = {
  type: 'object',
  properties: { tenant_id: uuid, integration_id: uuid },
  required: ['tenant_id', 'integration_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

/** The Standard Webhooks headers of a callback (checked again, with the signature, before anything is parsed). */
export const droneCallbackHeaders = {
  type: 'object',
  properties: {
    'webhook-id': {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      pattern: '^[\\x21-\\x7e]+$',
      description: 'The message id: a callback sent again with the same id is taken once.',
    },
    'webhook-timestamp': {
      type: 'string',
      pattern: '^[0-9]{1,12}$',
      description: 'Unix seconds; more than 5 minutes off is refused (401).',
    },
    'webhook-signature': {
      type: 'string',
      minLength: 1,
      maxLength: 2000,
      description: "`v1,<base64 HMAC-SHA256>` with the integration's secret, space-separated if several.",
    },
  },
  required: ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
} as const satisfies JsonSchema;

export const droneCallbackBody = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    description: 'Standard Webhooks shape: `{type, timestamp, data}`.',
    properties: {
      type: { type: 'string', const: 'drone.status' },
      timestamp,
      data: {
        type: 'object',
        properties: {
          dispatch_id: { ...uuid, description: 'From the command.' },
          incident_id: { ...uuid, description: 'From the command.' },
          status: { type: 'string', enum: DRONE_UPDATE_STATUSES },
          at: { ...timestamp, description: "When it happened at the dock (the callback's `timestamp` when absent)." },
          position,
          text: {
            type: 'string',
            minLength: 1,
            maxLength: 2000,
            description: 'What the pilot or the drone reports (an observation).',
          },
          media_url: {
            type: 'string',
            pattern: '^https?://',
            maxLength: 2048,
            description: 'A photo or video of it, kept as a link (never fetched).',
          },
          battery_pct: { type: 'number', minimum: 0, maximum: 100 },
          drone_id: { type: 'string', minLength: 1, maxLength: 200, description: "The dock's name for the drone." },
        },
        required: ['dispatch_id', 'incident_id', 'status'],
        additionalProperties: false,
      },
    },
    required: ['type', 'timestamp', 'data'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const droneCallbackAnswer = {
  type: 'object',
  properties: {
    dispatch_id: uuid,
    status: { type: 'string', enum: DRONE_DISPATCH_STATUSES, description: "The dispatch's status now." },
    duplicate: { type: 'boolean', description: 'This `webhook-id` was taken before: nothing was added.' },
  },
  required: ['dispatch_id', 'status', 'duplicate'],
} as const satisfies JsonSchema;
