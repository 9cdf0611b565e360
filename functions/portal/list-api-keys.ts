import { listApiKeys } from '../../shared/domain/accounts/api-keys.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { portalApiKeysListRoute } from '../../shared/routes/portal.js';

export const handler = httpHandler(portalApiKeysListRoute, async (req) => {
  const { tenant_id: _decided, ...page } = req.query;
  return json(await listApiKeys(req.actor, req.tenant, page));
});
