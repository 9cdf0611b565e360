import { environmentalRisk } from '../../shared/domain/connectors/environmental-risk.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { environmentalRiskRoute } from '../../shared/routes/environmental-risk.js';

export const handler = httpHandler(environmentalRiskRoute, async (req) =>
  json(await environmentalRisk(req.tenant, Date.now(), req.query)),
);
