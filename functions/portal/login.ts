import { login } from '../../shared/domain/accounts/portal.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { portalLoginRoute } from '../../shared/routes/portal.js';

export const handler = httpHandler(portalLoginRoute, async (req) => {
  const { email, password } = req.body;
  return json(await login(email, password));
});
