import { findEnvironment } from '../../shared/domain/sites/environments.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { environmentsGetRoute } from '../../shared/routes/environments.js';

export const handler = httpHandler(environmentsGetRoute, async (req) =>
  json(await findEnvironment(req.tenant, req.params.environment_id)),
);
