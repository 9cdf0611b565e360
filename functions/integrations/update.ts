import { updateIntegrationSettings } from '../../shared/domain/integrations/writes.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import { json } from '../../shared/http/reply.js';
import { integrationsUpdateRoute } from '../../shared/routes/integrations.js';

export const handler = httpHandler(
  integrationsUpdateRoute,
  async (req) => json(await updateIntegrationSettings(req.actor, req.tenant, req.params.integration_id, req.body)),
  { plan: planGate },
);
