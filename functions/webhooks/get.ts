import { findWebhook } from '../../shared/domain/webhooks/reads.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { webhooksGetRoute } from '../../shared/routes/webhooks.js';

export const handler = httpHandler(webhooksGetRoute, async (req) =>
  json(await findWebhook(req.tenant, req.params.webhook_id)),
);
