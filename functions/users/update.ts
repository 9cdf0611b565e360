import { updateUser, type UserUpdate } from '../../shared/domain/users.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('users.update', async (req) =>
  json(await updateUser(req.actor, req.params.user_id, req.query.tenant_id, req.body as UserUpdate)),
);
