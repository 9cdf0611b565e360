import { replay } from '../../shared/domain/incidents/history.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { replayTimelineRoute } from '../../shared/routes/incidents.js';

export const handler = httpHandler(replayTimelineRoute, async (req) =>
  json(await replay(req.tenant, req.params.incident_id)),
);
