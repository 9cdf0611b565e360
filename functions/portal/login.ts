import { login } from '../../shared/domain/portal.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('portal.login', async (req) => {
  const { email, password } = req.body as { email: string; password: string };
  return json(await login(email, password));
});
