import { updateWebhookSubscription } from '../../shared/domain/webhooks/subscriptions.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import { json } from '../../shared/http/reply.js';
import { webhooksUpdateRoute } from '../../shared/routes/webhooks.js';

export const handler = httpHandler(
  webhooksUpdateRoute,
  async (req) => json(await updateWebhookSubscription(req.actor, req.tenant, req.params.webhook_id, req.body)),
  { plan: planGate },
);
