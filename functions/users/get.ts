import { findUser } from '../../shared/domain/users.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('users.get', async (req) =>
  json(await findUser(req.actor, req.params.user_id, req.query.tenant_id)),
);
