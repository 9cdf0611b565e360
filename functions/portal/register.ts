import { register } from '../../shared/domain/accounts/portal.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { portalRegisterRoute } from '../../shared/routes/portal.js';

export const handler = httpHandler(portalRegisterRoute, async (req) => json(await register(req.actor, req.body)));
