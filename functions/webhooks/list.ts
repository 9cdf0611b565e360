import { listWebhooks } from '../../shared/domain/webhooks/reads.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { webhooksListRoute } from '../../shared/routes/webhooks.js';

export const handler = httpHandler(webhooksListRoute, async (req) =>
  json(await listWebhooks(req.tenant, { limit: req.query.limit, offset: req.query.offset })),
);
