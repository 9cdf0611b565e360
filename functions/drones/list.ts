import { listIncidentDispatches } from '../../shared/domain/drones/reads.js';
import { httpHandler } from '../../shared/http/handler.js';
import { pageOfWhole } from '../../shared/http/list-page.js';
import { json } from '../../shared/http/reply.js';
import { dronesListRoute } from '../../shared/routes/drones.js';

export const handler = httpHandler(dronesListRoute, async (req) =>
  json(pageOfWhole(await listIncidentDispatches(req.tenant, req.params.incident_id), req.query)),
);
