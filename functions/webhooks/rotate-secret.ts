import { rotateWebhookSecret } from '../../shared/domain/webhooks/subscriptions.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import { json } from '../../shared/http/reply.js';
import { webhooksRotateSecretRoute } from '../../shared/routes/webhooks.js';

export const handler = httpHandler(
  webhooksRotateSecretRoute,
  async (req) => json(await rotateWebhookSecret(req.actor, req.tenant, req.params.webhook_id)),
  { plan: planGate },
);
