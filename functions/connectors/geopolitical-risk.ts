import { geopoliticalRisk } from '../../shared/domain/connectors/geopolitical-risk.js';
import { countryCodeOf } from '../../shared/domain/country-code.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { geopoliticalRiskRoute } from '../../shared/routes/geopolitical.js';

export const handler = httpHandler(geopoliticalRiskRoute, async (req) =>
  json(
    await geopoliticalRisk(
      req.tenant,
      Date.now(),
      req.query.country === undefined ? null : countryCodeOf(req.query.country, ['query', 'country']),
    ),
  ),
);
