import { filePublicReport } from '../../shared/domain/incidents/public-reports.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { incidentsPublicRoute } from '../../shared/routes/incidents.js';

export const handler = httpHandler(incidentsPublicRoute, async (req) =>
  json(await filePublicReport(req.actor, req.body)),
);
