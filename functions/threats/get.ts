import { findThreat } from '../../shared/domain/threats/active.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { threatsGetRoute } from '../../shared/routes/threats.js';

export const handler = httpHandler(threatsGetRoute, async (req) =>
  json(await findThreat(req.tenant, req.params.threat_id)),
);
