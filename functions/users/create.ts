import { createUser, type UserCreate } from '../../shared/domain/users.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('users.create', async (req) => json(await createUser(req.actor, req.body as UserCreate)));
