import type { PageRequest } from '../../shared/db/query.js';
import { listInfrastructureFiles } from '../../shared/domain/infrastructure/files.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('infrastructure.list', async (req) => {
  const { tenant_id, ...page } = req.query as PageRequest & { tenant_id?: string };
  return json(await listInfrastructureFiles(req.actor, req.params.environment_id, tenant_id, page));
});
