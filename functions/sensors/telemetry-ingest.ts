import { ingestTelemetry } from '../../shared/domain/fibre/telemetry.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { sensorsTelemetryIngestRoute } from '../../shared/routes/telemetry.js';

export const handler = httpHandler(
  sensorsTelemetryIngestRoute,
  async (req) => json(await ingestTelemetry(req.actor, req.meter, req.tenant, req.params.sensor_id, req.body), 201),
  { meter: 'function' },
);
