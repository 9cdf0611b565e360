import { createApiKey } from '../../shared/domain/accounts/api-keys.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { portalApiKeysCreateRoute } from '../../shared/routes/portal.js';

export const handler = httpHandler(portalApiKeysCreateRoute, async (req) =>
  json(await createApiKey(req.actor, req.tenant, req.body)),
);
