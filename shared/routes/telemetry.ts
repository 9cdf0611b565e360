/** Fibre-sensor telemetry: raw DAS/DTS frames in, windows of frames out (docs/fibre-telemetry.md). */
import {
  telemetryBatchCreate,
  telemetryPath,
  telemetryReadQuery,
  telemetryReceipt,
  telemetryScopeQuery,
  telemetryWindow,
} from '../schemas/telemetry.js';
import type { RouteDef } from './types.js';

export const sensorsTelemetryIngestRoute = {
  id: 'sensors.telemetryIngest',
  method: 'POST',
  path: '/api/v1/sensors/{sensor_id}/telemetry',
  handler: 'functions/sensors/telemetry-ingest.ts',
  access: 'OPERATOR',
  tenant: 'query',
  tag: 'sensors',
  summary: 'Post a batch of raw frames of a fibre_optic sensor (DAS or DTS)',
  description:
    "The batch is stored as one compressed object and indexed once; values above the sensor's `fibre.threshold` become `fibre.disturbance` events located on the sensor's line (docs/fibre-telemetry.md). A retry of a batch (same `batch_id` and first frame time) stores and detects nothing again and answers `duplicate: true`; the same `batch_id` and first frame time with other frames is 409. 422 for a sensor of another type; 413 past 100,000 values or a 1 MB body.",
  request: { path: telemetryPath, query: telemetryScopeQuery, body: telemetryBatchCreate },
  response: {
    status: 201,
    description: 'What was stored, and the events of its detections.',
    schema: telemetryReceipt,
  },
  errors: [404, 409, 413],
  timeoutSeconds: 29,
  grants: { audit: 'seal', table: 'write', bucket: 'write' },
} as const satisfies RouteDef;

export const sensorsTelemetryReadRoute = {
  id: 'sensors.telemetryRead',
  method: 'GET',
  path: '/api/v1/sensors/{sensor_id}/telemetry',
  handler: 'functions/sensors/telemetry-read.ts',
  access: 'VIEWER',
  tenant: 'query',
  tag: 'sensors',
  summary: "A window of a fibre_optic sensor's raw frames (get_sensor_data)",
  description:
    'Frames with `from <= time <= to` (at most 24 hours), oldest first, cut to the channels asked for; at most `max_frames` frames and 100,000 values, never splitting one frame time: `next_from` names where the rest begin (ask again with it as `from`). Frames are answered exactly as posted.',
  request: { path: telemetryPath, query: telemetryReadQuery },
  response: { status: 200, description: 'The frames of the window.', schema: telemetryWindow },
  errors: [404],
  timeoutSeconds: 29,
  grants: { table: 'read', bucket: 'read' },
} as const satisfies RouteDef;

export const telemetryRoutes: readonly RouteDef[] = [sensorsTelemetryIngestRoute, sensorsTelemetryReadRoute];
