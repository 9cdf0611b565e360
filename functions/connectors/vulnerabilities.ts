import { lookupKev } from '../../shared/domain/connectors/threat-feed.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { threatFeedVulnerabilitiesRoute } from '../../shared/routes/connectors.js';

export const handler = httpHandler(threatFeedVulnerabilitiesRoute, async (req) =>
  json(await lookupKev(req.tenant, req.query)),
);
