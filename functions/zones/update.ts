import { updateZone } from '../../shared/domain/sites/zones.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { zonesUpdateRoute } from '../../shared/routes/zones.js';

export const handler = httpHandler(zonesUpdateRoute, async (req) =>
  json(await updateZone(req.actor, req.params.zone_id, req.tenant, req.body)),
);
