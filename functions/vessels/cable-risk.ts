import { cableRisk } from '../../shared/domain/vessels/cable-risk.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { cableRiskRoute } from '../../shared/routes/vessels.js';

export const handler = httpHandler(cableRiskRoute, async (req) =>
  json(await cableRisk(req.tenant, { lat: req.query.lat, lon: req.query.lon }, req.query.hours)),
);
