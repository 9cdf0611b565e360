import type { PageRequest } from '../../shared/db/query.js';
import { listUsers } from '../../shared/domain/users.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('users.list', async (req) => {
  const { tenant_id, ...page } = req.query as PageRequest & { tenant_id?: string };
  return json(await listUsers(req.actor, tenant_id, page));
});
