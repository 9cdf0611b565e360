import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { webhooksEventsRoute } from '../../shared/routes/webhooks.js';
import { WEBHOOK_EVENT_TYPES } from '../../shared/schemas/webhooks.js';

export const handler = httpHandler(webhooksEventsRoute, async () => json(WEBHOOK_EVENT_TYPES));
