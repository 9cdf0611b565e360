import { findEvent } from '../../shared/domain/events/read.js';
import { httpHandler } from '../../shared/http/handler.js';
import { json } from '../../shared/http/reply.js';

export const handler = httpHandler('events.get', async (req) => json(await findEvent(req.actor, req.params.event_id, req.query.tenant_id)));
