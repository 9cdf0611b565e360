import { listWebhookDeliveries } from '../../shared/domain/webhooks/reads.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { webhooksDeliveriesRoute } from '../../shared/routes/webhooks.js';

export const handler = httpHandler(webhooksDeliveriesRoute, async (req) =>
  json(
    await listWebhookDeliveries(
      req.tenant,
      req.params.webhook_id,
      { limit: req.query.limit, offset: req.query.offset },
      req.query.status,
    ),
  ),
);
