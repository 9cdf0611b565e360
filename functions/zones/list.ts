import { listZones } from '../../shared/domain/sites/zones.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { zonesListRoute } from '../../shared/routes/zones.js';

export const handler = httpHandler(zonesListRoute, async (req) => {
  const { tenant_id: _decided, environment_id, ...page } = req.query;
  return json(await listZones(req.actor, req.tenant, environment_id, page));
});
