import { findIntegration } from '../../shared/domain/integrations/reads.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { integrationsGetRoute } from '../../shared/routes/integrations.js';

export const handler = httpHandler(integrationsGetRoute, async (req) =>
  json(await findIntegration(req.tenant, req.params.integration_id)),
);
