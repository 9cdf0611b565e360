import { deleteEnvironment } from '../../shared/domain/sites/environment-deletion.js';
import { httpHandler } from '../../shared/http/handler.js';
import { noContent } from '../../shared/http/reply.js';
import { environmentsDeleteRoute } from '../../shared/routes/environments.js';

export const handler = httpHandler(environmentsDeleteRoute, async (req) => {
  await deleteEnvironment(req.actor, req.params.environment_id, req.tenant, req.query.cascade);
  return noContent();
});
