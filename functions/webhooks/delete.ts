import { deleteWebhook } from '../../shared/domain/webhooks/subscriptions.js';
import { httpHandler } from '../../shared/http/handler.js';
import { noContent } from '../../shared/http/reply.js';
import { webhooksDeleteRoute } from '../../shared/routes/webhooks.js';

export const handler = httpHandler(webhooksDeleteRoute, async (req) => {
  await deleteWebhook(req.actor, req.tenant, req.params.webhook_id);
  return noContent();
});
