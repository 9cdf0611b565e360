import { testIntegration } from '../../shared/domain/integrations/connection-test.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import { json } from '../../shared/http/reply.js';
import { integrationsTestRoute } from '../../shared/routes/integrations.js';

export const handler = httpHandler(
  integrationsTestRoute,
  async (req) => json(await testIntegration(req.tenant, req.params.integration_id)),
  { plan: planGate },
);
