import { findSensor, type SensorScope } from '../../shared/domain/sensors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('sensors.get', async (req) =>
  json(await findSensor(req.actor, req.params.sensor_id, req.query as SensorScope)),
);
