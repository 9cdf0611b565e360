import { updateUser } from '../../shared/domain/accounts/user-accounts.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { usersUpdateRoute } from '../../shared/routes/users.js';

export const handler = httpHandler(usersUpdateRoute, async (req) =>
  json(await updateUser(req.actor, req.params.user_id, req.tenant, req.body)),
);
