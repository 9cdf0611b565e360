import { cableRisk } from '../../shared/domain/vessels/cable-risk.js';
import { developerAuthorizer } from '../../shared/http/developer-auth.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { developerCableRiskRoute } from '../../shared/routes/developer.js';

export const handler = httpHandler(
  developerCableRiskRoute,
  async (req) => json(await cableRisk(req.tenant, { lat: req.query.lat, lon: req.query.lon }, req.query.hours)),
  { authorizer: developerAuthorizer },
);
