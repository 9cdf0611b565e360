import { listIntegrations } from '../../shared/domain/integrations/reads.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { integrationsListRoute } from '../../shared/routes/integrations.js';

export const handler = httpHandler(integrationsListRoute, async (req) =>
  json(await listIntegrations(req.tenant, { limit: req.query.limit, offset: req.query.offset })),
);
