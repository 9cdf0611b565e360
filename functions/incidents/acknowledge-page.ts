import { acknowledgementLink } from '../../shared/domain/incidents/acknowledgement.js';
import { acknowledgementPageReply } from '../../shared/http/acknowledgement-page.js';
import { httpHandler } from '../../shared/http/handler.js';
import { incidentsAcknowledgePageRoute } from '../../shared/routes/incidents.js';

export const handler = httpHandler(incidentsAcknowledgePageRoute, async (req) =>
  acknowledgementPageReply(await acknowledgementLink(req.params.incident_id, req.query.token)),
);
