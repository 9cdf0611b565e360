import { replayDelivery } from '../../shared/domain/webhooks/replays.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import { json } from '../../shared/http/reply.js';
import { webhooksReplayDeliveryRoute } from '../../shared/routes/webhooks.js';

export const handler = httpHandler(
  webhooksReplayDeliveryRoute,
  async (req) => json(await replayDelivery(req.actor, req.tenant, req.params.webhook_id, req.params.delivery_id)),
  { plan: planGate },
);
