import { register, type Registration } from '../../shared/domain/portal.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('portal.register', async (req) => json(await register(req.actor, req.body as Registration)));
