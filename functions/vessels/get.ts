import { vesselProfile } from '../../shared/domain/vessels/profile.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { vesselsGetRoute } from '../../shared/routes/vessels.js';

export const handler = httpHandler(vesselsGetRoute, async (req) =>
  json(await vesselProfile(req.tenant, req.params.mmsi, req.query.hours)),
);
