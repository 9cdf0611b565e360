import { deleteZone } from '../../shared/domain/sites/zones.js';
import { httpHandler } from '../../shared/http/handler.js';
import { noContent } from '../../shared/http/reply.js';
import { zonesDeleteRoute } from '../../shared/routes/zones.js';

export const handler = httpHandler(zonesDeleteRoute, async (req) => {
  await deleteZone(req.actor, req.params.zone_id, req.tenant);
  return noContent();
});
