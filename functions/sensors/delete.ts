import { deleteSensor } from '../../shared/domain/sites/sensors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { noContent } from '../../shared/http/reply.js';
import { sensorsDeleteRoute } from '../../shared/routes/sensors.js';

export const handler = httpHandler(sensorsDeleteRoute, async (req) => {
  await deleteSensor(req.actor, req.tenant, req.params.sensor_id, req.query);
  return noContent();
});
