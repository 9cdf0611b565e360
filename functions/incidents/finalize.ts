import { finalizeDraft } from '../../shared/domain/incidents/drafts.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { incidentsFinalizeRoute } from '../../shared/routes/incidents.js';

export const handler = httpHandler(incidentsFinalizeRoute, async (req) =>
  json(await finalizeDraft(req.actor, req.tenant, req.params.incident_id, req.body.note)),
);
