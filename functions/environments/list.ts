import type { PageRequest } from '../../shared/db/query.js';
import { listEnvironments } from '../../shared/domain/environments.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('environments.list', async (req) => {
  const { tenant_id, type, status, ...page } = req.query as PageRequest & { tenant_id: string; type?: string; status?: string };
  return json(await listEnvironments(req.actor, tenant_id, { type, status }, page));
});
