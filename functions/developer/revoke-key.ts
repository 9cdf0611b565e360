import { revokeDeveloperKey } from '../../shared/domain/developer/keys.js';
import { developerAuthorizer } from '../../shared/http/developer-auth.js';
import { httpHandler } from '../../shared/http/handler.js';
import { noContent } from '../../shared/http/reply.js';
import { developerKeysRevokeRoute } from '../../shared/routes/developer.js';

export const handler = httpHandler(
  developerKeysRevokeRoute,
  async (req) => {
    await revokeDeveloperKey(req.actor, req.tenant, req.params.key_id);
    return noContent();
  },
  { authorizer: developerAuthorizer },
);
