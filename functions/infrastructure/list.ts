import { listInfrastructureFiles } from '../../shared/domain/infrastructure/files.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { infrastructureListRoute } from '../../shared/routes/infrastructure.js';

export const handler = httpHandler(infrastructureListRoute, async (req) => {
  const { tenant_id: _decided, ...page } = req.query;
  return json(await listInfrastructureFiles(req.actor, req.params.environment_id, req.tenant, page));
});
