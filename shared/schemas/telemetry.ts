/** Fibre-sensor telemetry: batches of raw frames in, windows of frames out (docs/fibre-telemetry.md). */
import { timestamp, uuid } from './common.js';
import type { JsonSchema } from './json-schema.js';
import { sensorIdString } from './sensors.js';
import { tenantScope } from './users.js';

/** Most frames one batch holds. */
export const MAX_BATCH_FRAMES = 1_000;
/** Most channels one frame holds. */
export const MAX_FRAME_CHANNELS = 10_000;
/** Most values (frames × channels) one batch holds: more is 413. */
export const MAX_BATCH_VALUES = 100_000;
/** Most frames one read answers. */
export const MAX_READ_FRAMES = 1_000;
/** Most values one read answers. */
export const MAX_READ_VALUES = 100_000;

const kind = {
  type: 'string',
  enum: ['das', 'dts'],
  description:
    '`das`: distributed acoustic sensing (strain-rate energy per channel); `dts`: distributed temperature sensing (degrees C per channel).',
} as const;
const batchId = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.-]+$' } as const;

export const telemetryPath = {
  type: 'object',
  properties: { sensor_id: sensorIdString },
  required: ['sensor_id'],
  additionalProperties: false,
} as const satisfies JsonSchema;

export const telemetryScopeQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: { tenant_id: { ...sensorIdString, description: tenantScope.description } },
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

const frame = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      time: timestamp,
      channel_start: {
        type: 'integer',
        minimum: 0,
        maximum: 1_000_000,
        description: 'The channel of values[0]; values[i] is channel channel_start + i.',
      },
      values: { type: 'array', minItems: 1, maxItems: MAX_FRAME_CHANNELS, items: { type: 'number' } },
    },
    required: ['time', 'channel_start', 'values'],
    additionalProperties: false,
  }) as const)();

export const telemetryBatchCreate = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      batch_id: {
        ...batchId,
        description:
          "The unit's id of this batch: a retry sends the same one and is stored (and detected) once. Defaults to a hash of the batch.",
      },
      kind,
      classification: {
        type: 'string',
        minLength: 1,
        maxLength: 100,
        description:
          "What the interrogator's own classifier made of this batch's disturbance (e.g. `digging`, `vehicle`, `walking`), carried into the description of its detections.",
      },
      frames: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_BATCH_FRAMES,
        description: `At most ${MAX_BATCH_FRAMES} frames and ${MAX_BATCH_VALUES} values in all (413 beyond), within one hour, none ahead of now by more than a minute nor older than 7 days.`,
        items: frame,
      },
    },
    required: ['kind', 'frames'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const telemetryReceipt = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      sensor_id: uuid,
      batch_id: { type: 'string' },
      kind,
      start: timestamp,
      end: timestamp,
      frames: { type: 'integer' },
      channel_from: { type: 'integer' },
      channel_to: { type: 'integer' },
      max_value: { type: 'number' },
      duplicate: {
        type: 'boolean',
        description: 'This batch was stored before (a retry): nothing was stored or detected again.',
      },
      detections: {
        type: 'integer',
        description: 'Runs over the threshold in the batch: each raised an event or continued one.',
      },
      event_ids: { type: 'array', items: uuid, description: 'The `fibre.disturbance` events the detections raised.' },
      continued_event_ids: {
        type: 'array',
        items: uuid,
        description:
          "Events of earlier batches that this batch's detections continued (the same channels, at most 5 s after, within 10 minutes of the event's first frame): no new event for them.",
      },
    },
    required: [
      'sensor_id',
      'batch_id',
      'kind',
      'start',
      'end',
      'frames',
      'channel_from',
      'channel_to',
      'max_value',
      'duplicate',
      'detections',
      'event_ids',
      'continued_event_ids',
    ],
  }) as const satisfies JsonSchema)();

export const telemetryReadQuery = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      ...telemetryScopeQuery.properties,
      from: { ...timestamp, description: 'Frames at or after this time.' },
      to: { ...timestamp, description: 'Frames at or before this time; at most 24 hours after `from`.' },
      channel_from: { type: 'integer', minimum: 0, maximum: 1_000_000, description: 'Only channels from this one.' },
      channel_to: { type: 'integer', minimum: 0, maximum: 1_000_000, description: 'Only channels up to this one.' },
      max_frames: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_READ_FRAMES,
        default: 200,
        description: `Most frames answered (also at most ${MAX_READ_VALUES} values); the rest from \`next_from\`.`,
      },
    },
    required: ['from', 'to'],
    additionalProperties: false,
  }) as const satisfies JsonSchema)();

export const telemetryWindow = /* @__PURE__ */ (() =>
  ({
    type: 'object',
    properties: {
      sensor_id: uuid,
      from: timestamp,
      to: timestamp,
      frames: {
        type: 'array',
        items: {
          type: 'object',
          properties: { ...frame.properties, kind, batch_id: { type: 'string' } },
          required: ['time', 'channel_start', 'values', 'kind', 'batch_id'],
        },
      },
      next_from: {
        ...timestamp,
        type: ['string', 'null'],
        description: 'More frames lie in the window: ask again with this as `from`. Null when this is all.',
      },
    },
    required: ['sensor_id', 'from', 'to', 'frames', 'next_from'],
  }) as const satisfies JsonSchema)();
