import { pollConnector } from '../../shared/domain/connectors/poll-connector.js';
import { pollRouting } from '../../shared/domain/internet-health/poll-routing.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { connectorsPollRoute } from '../../shared/routes/connectors.js';

export const handler = httpHandler(connectorsPollRoute, async (req) => {
  // Asked for: a connector that is not the tenant's is a 404, never null.
  const polled = (await pollConnector(req.tenant, req.params.connector_id, true, pollRouting))!;
  return json({ ...polled.report, connector: polled.connector });
});
