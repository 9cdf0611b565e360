import { feed } from '../../shared/domain/incidents/history.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';
import { feedListRoute } from '../../shared/routes/incidents.js';

export const handler = httpHandler(feedListRoute, async (req) => json(await feed(req.tenant, req.query)));
