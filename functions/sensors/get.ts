import { findSensor } from '../../shared/domain/sites/sensors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { sensorsGetRoute } from '../../shared/routes/sensors.js';

export const handler = httpHandler(sensorsGetRoute, async (req) =>
  json(await findSensor(req.tenant, req.params.sensor_id, req.query)),
);
