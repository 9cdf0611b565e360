import { acknowledge } from '../../shared/domain/incidents/acknowledgement.js';
import { acknowledgeFromForm, isFormPost } from '../../shared/http/acknowledgement-page.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { incidentsAcknowledgeRoute } from '../../shared/routes/incidents.js';

export const handler = httpHandler(incidentsAcknowledgeRoute, async (req) => {
  const ack = () => acknowledge(req.actor, req.params.incident_id, req.query.token);
  // The link's page posts its form; programs get the incident as JSON.
  return isFormPost(req.headers['content-type']) ? acknowledgeFromForm(req.query.token, ack) : json(await ack());
});
