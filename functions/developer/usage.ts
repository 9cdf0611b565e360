import { accessOf, developerUsage } from '../../shared/domain/developer/access.js';
import { developerAuthorizer } from '../../shared/http/developer-auth.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { developerUsageRoute } from '../../shared/routes/developer.js';

export const handler = httpHandler(
  developerUsageRoute,
  async (req) => json(await developerUsage(accessOf(req.actor.principal), req.actor.principal)),
  { authorizer: developerAuthorizer },
);
