import { whoAmI } from '../../shared/domain/accounts/portal.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { portalMeRoute } from '../../shared/routes/portal.js';

export const handler = httpHandler(portalMeRoute, async (req) => json(whoAmI(req.actor, req.read)));
