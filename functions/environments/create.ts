import { createEnvironment } from '../../shared/domain/sites/environments.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { environmentsCreateRoute } from '../../shared/routes/environments.js';

export const handler = httpHandler(environmentsCreateRoute, async (req) =>
  json(await createEnvironment(req.actor, req.tenant, req.body)),
);
