import { rotatePublicReportKey } from '../../shared/domain/incidents/public-reports.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { incidentsPublicKeyRoute } from '../../shared/routes/incidents.js';

export const handler = httpHandler(incidentsPublicKeyRoute, async (req) =>
  json(await rotatePublicReportKey(req.actor, req.tenant)),
);
