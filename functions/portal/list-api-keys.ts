import type { PageRequest } from '../../shared/db/query.js';
import { listApiKeys } from '../../shared/domain/api-keys.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('portal.apiKeys.list', async (req) => {
  const { tenant_id, ...page } = req.query as PageRequest & { tenant_id?: string };
  return json(await listApiKeys(req.actor, tenant_id, page));
});
