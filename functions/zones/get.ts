import { findZone } from '../../shared/domain/sites/zones.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { zonesGetRoute } from '../../shared/routes/zones.js';

export const handler = httpHandler(zonesGetRoute, async (req) =>
  json(await findZone(req.actor, req.params.zone_id, req.tenant)),
);
