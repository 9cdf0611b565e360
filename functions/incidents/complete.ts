import { completeDraft } from '../../shared/domain/incidents/drafts.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { incidentsCompleteRoute } from '../../shared/routes/incidents.js';

export const handler = httpHandler(incidentsCompleteRoute, async (req) =>
  json(await completeDraft(req.actor, req.tenant, req.params.incident_id, req.body)),
);
