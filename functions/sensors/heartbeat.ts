import { recordHeartbeat } from '../../shared/domain/sites/sensors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { sensorsHeartbeatRoute } from '../../shared/routes/sensors.js';

export const handler = httpHandler(sensorsHeartbeatRoute, async (req) =>
  json(await recordHeartbeat(req.tenant, req.params.sensor_id, req.query)),
);
