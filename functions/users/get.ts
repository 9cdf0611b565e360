import { findUser } from '../../shared/domain/accounts/users.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { usersGetRoute } from '../../shared/routes/users.js';

export const handler = httpHandler(usersGetRoute, async (req) =>
  json(await findUser(req.actor, req.params.user_id, req.tenant)),
);
