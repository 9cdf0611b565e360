import { createZone } from '../../shared/domain/sites/zones.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { zonesCreateRoute } from '../../shared/routes/zones.js';

export const handler = httpHandler(zonesCreateRoute, async (req) =>
  json(await createZone(req.actor, req.tenant, req.body)),
);
