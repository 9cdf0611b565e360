import { snapshot } from '../../shared/domain/incidents/history.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { replaySnapshotRoute } from '../../shared/routes/incidents.js';

export const handler = httpHandler(replaySnapshotRoute, async (req) =>
  json(await snapshot(req.tenant, req.params.incident_id, req.query.at)),
);
