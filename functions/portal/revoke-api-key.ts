import { revokeApiKey } from '../../shared/domain/accounts/api-keys.js';
import { httpHandler } from '../../shared/http/handler.js';
import { noContent } from '../../shared/http/reply.js';
import { portalApiKeysRevokeRoute } from '../../shared/routes/portal.js';

export const handler = httpHandler(portalApiKeysRevokeRoute, async (req) => {
  await revokeApiKey(req.actor, req.params.key_id, req.tenant);
  return noContent();
});
