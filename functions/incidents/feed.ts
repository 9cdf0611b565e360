import { feed } from '../../shared/domain/incidents/history.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('feed.list', async (req) => json(await feed(req.actor, req.query as { limit: number; offset: number })));
