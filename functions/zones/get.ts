import { findZone } from '../../shared/domain/zones.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('zones.get', async (req) => json(await findZone(req.actor, req.params.zone_id, req.query.tenant_id)));
