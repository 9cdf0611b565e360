import { listSensors } from '../../shared/domain/sites/sensors.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { sensorsListRoute } from '../../shared/routes/sensors.js';

export const handler = httpHandler(sensorsListRoute, async (req) => {
  const { tenant_id: _decided, environment_id, ...page } = req.query;
  return json(await listSensors(req.tenant, environment_id, page));
});
