import { issueDeveloperKey } from '../../shared/domain/developer/keys.js';
import { developerAuthorizer } from '../../shared/http/developer-auth.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { developerKeysIssueRoute } from '../../shared/routes/developer.js';

export const handler = httpHandler(
  developerKeysIssueRoute,
  async (req) => json(await issueDeveloperKey(req.actor, req.principal ? await req.tenantOf() : null, req.body)),
  { authorizer: developerAuthorizer },
);
