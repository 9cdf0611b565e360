import { requestRegistration } from '../../shared/domain/accounts/index.js';
import { httpHandler } from '../../shared/http/handler.js';
import { publicBaseOf } from '../../shared/http/public-base.js';
import { json } from '../../shared/http/reply.js';
import { portalRegisterRoute } from '../../shared/routes/portal.js';

export const handler = httpHandler(portalRegisterRoute, async (req) =>
  json(await requestRegistration(req.actor, req.body, publicBaseOf(req.event))),
);
