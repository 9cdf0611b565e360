import { lookupIndicators } from '../../shared/domain/connectors/threat-feed.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { threatFeedIndicatorsRoute } from '../../shared/routes/connectors.js';

export const handler = httpHandler(threatFeedIndicatorsRoute, async (req) =>
  json(await lookupIndicators(req.tenant, req.query, req.query.limit, new Date())),
);
