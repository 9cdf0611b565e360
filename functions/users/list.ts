import { listUsers } from '../../shared/domain/accounts/users.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { usersListRoute } from '../../shared/routes/users.js';

export const handler = httpHandler(usersListRoute, async (req) => {
  const { tenant_id: _decided, ...page } = req.query;
  return json(await listUsers(req.actor, req.tenant, page));
});
