import { readTelemetry } from '../../shared/domain/fibre/telemetry.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { sensorsTelemetryReadRoute } from '../../shared/routes/telemetry.js';

export const handler = httpHandler(sensorsTelemetryReadRoute, async (req) =>
  json(await readTelemetry(req.tenant, req.params.sensor_id, req.query)),
);
