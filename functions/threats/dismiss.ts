import { dismissThreat } from '../../shared/domain/threats/active.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { threatsDismissRoute } from '../../shared/routes/threats.js';

export const handler = httpHandler(threatsDismissRoute, async (req) =>
  json(await dismissThreat(req.actor, req.tenant, req.params.threat_id, req.body.reason ?? null)),
);
