import { updateZone, type ZoneUpdate } from '../../shared/domain/zones.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('zones.update', async (req) =>
  json(await updateZone(req.actor, req.params.zone_id, req.query.tenant_id, req.body as ZoneUpdate)),
);
