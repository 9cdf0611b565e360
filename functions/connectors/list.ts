import { listConnectors } from '../../shared/domain/connectors/connector-view.js';
import { httpHandler } from '../../shared/http/handler.js';
import { pageOfWhole } from '../../shared/http/list-page.js';
import { json } from '../../shared/http/reply.js';
import { connectorsListRoute } from '../../shared/routes/connectors.js';

export const handler = httpHandler(connectorsListRoute, async (req) =>
  json(pageOfWhole(await listConnectors(req.tenant, req.query.feed), req.query)),
);
