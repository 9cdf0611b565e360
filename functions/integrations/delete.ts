import { deleteIntegration } from '../../shared/domain/integrations/writes.js';
import { httpHandler } from '../../shared/http/handler.js';
import { noContent } from '../../shared/http/reply.js';
import { integrationsDeleteRoute } from '../../shared/routes/integrations.js';

export const handler = httpHandler(integrationsDeleteRoute, async (req) => {
  await deleteIntegration(req.actor, req.tenant, req.params.integration_id);
  return noContent();
});
