import { vesselProfile } from '../../shared/domain/vessels/profile.js';
import { developerAuthorizer } from '../../shared/http/developer-auth.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { developerVesselProfileRoute } from '../../shared/routes/developer.js';

export const handler = httpHandler(
  developerVesselProfileRoute,
  async (req) => json(await vesselProfile(req.tenant, req.query.mmsi, req.query.hours)),
  { authorizer: developerAuthorizer },
);
