import { replayFailedSince } from '../../shared/domain/webhooks/replays.js';
import { httpHandler } from '../../shared/http/handler.js';
import { planGate } from '../../shared/http/plan-gate.js';
import { json } from '../../shared/http/reply.js';
import { webhooksReplayFailedRoute } from '../../shared/routes/webhooks.js';

export const handler = httpHandler(
  webhooksReplayFailedRoute,
  async (req) => json(await replayFailedSince(req.actor, req.tenant, req.params.webhook_id, req.body.since)),
  { plan: planGate },
);
