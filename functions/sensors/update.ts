import { updateSensor } from '../../shared/domain/sites/sensors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { sensorsUpdateRoute } from '../../shared/routes/sensors.js';

export const handler = httpHandler(sensorsUpdateRoute, async (req) =>
  json(await updateSensor(req.actor, req.tenant, req.params.sensor_id, req.query, req.body)),
);
