import { createWebhook } from '../../shared/domain/webhooks/subscriptions.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import { json } from '../../shared/http/reply.js';
import { webhooksCreateRoute } from '../../shared/routes/webhooks.js';

export const handler = httpHandler(
  webhooksCreateRoute,
  async (req) => json(await createWebhook(req.actor, req.tenant, req.body)),
  { plan: planGate },
);
