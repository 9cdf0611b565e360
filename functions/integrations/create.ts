import { createIntegration } from '../../shared/domain/integrations.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { integrationsCreateRoute } from '../../shared/routes/integrations.js';

export const handler = httpHandler(integrationsCreateRoute, async (req) => {
  const { tenant_id: _t, ...input } = req.body;
  return json(await createIntegration(req.actor, req.tenant, input));
});
