import { testWebhook } from '../../shared/domain/webhooks/subscriptions.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import { json } from '../../shared/http/reply.js';
import { webhooksTestRoute } from '../../shared/routes/webhooks.js';

export const handler = httpHandler(
  webhooksTestRoute,
  async (req) => json(await testWebhook(req.tenant, req.params.webhook_id)),
  { plan: planGate },
);
