import { createIntegration } from '../../shared/domain/integrations/writes.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import { json } from '../../shared/http/reply.js';
import { integrationsCreateRoute } from '../../shared/routes/integrations.js';

export const handler = httpHandler(
  integrationsCreateRoute,
  async (req) => json(await createIntegration(req.actor, req.tenant, req.body)),
  { plan: planGate },
);
