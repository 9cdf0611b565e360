import { deleteUser } from '../../shared/domain/accounts/user-accounts.js';
import { httpHandler } from '../../shared/http/handler.js';
import { noContent } from '../../shared/http/reply.js';
import { usersDeleteRoute } from '../../shared/routes/users.js';

export const handler = httpHandler(usersDeleteRoute, async (req) => {
  await deleteUser(req.actor, req.params.user_id, req.tenant);
  return noContent();
});
