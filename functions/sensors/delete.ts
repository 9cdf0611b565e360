import { deleteSensor, type SensorScope } from '../../shared/domain/sensors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { noContent } from '../../shared/http/reply.js';

export const handler = httpHandler('sensors.delete', async (req) => {
  await deleteSensor(req.actor, req.params.sensor_id, req.query as SensorScope);
  return noContent();
});
