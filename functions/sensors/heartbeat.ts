import { recordHeartbeat, type SensorScope } from '../../shared/domain/sensors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('sensors.heartbeat', async (req) =>
  json(await recordHeartbeat(req.actor, req.params.sensor_id, req.query as SensorScope)),
);
