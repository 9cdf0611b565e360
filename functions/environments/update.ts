import { updateEnvironment } from '../../shared/domain/sites/environments.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { environmentsUpdateRoute } from '../../shared/routes/environments.js';

export const handler = httpHandler(environmentsUpdateRoute, async (req) =>
  json(await updateEnvironment(req.actor, req.params.environment_id, req.tenant, req.body)),
);
