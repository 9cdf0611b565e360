import { listEnvironments } from '../../shared/domain/sites/environments.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { environmentsListRoute } from '../../shared/routes/environments.js';

export const handler = httpHandler(environmentsListRoute, async (req) => {
  const { tenant_id: _decided, type, status, ...page } = req.query;
  return json(await listEnvironments(req.actor, req.tenant, { type, status }, page));
});
