import { updateSensor, type SensorScope, type SensorUpdate } from '../../shared/domain/sensors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('sensors.update', async (req) =>
  json(await updateSensor(req.actor, req.params.sensor_id, req.query as SensorScope, req.body as SensorUpdate)),
);
