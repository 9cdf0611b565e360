import { createZone, type ZoneCreate } from '../../shared/domain/zones.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('zones.create', async (req) => json(await createZone(req.actor, req.body as ZoneCreate)));
